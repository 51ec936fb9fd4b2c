import { Body, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  AdvanceTestClockRequest,
  DisputeResponse,
  PaymentResponse,
  SandboxCompleteCheckoutRequest,
  SandboxResolveDisputeRequest,
  SandboxRunScanRequest,
  SandboxScanResponse,
  SandboxVirtualAccountDepositRequest,
  TestClockResponse,
  VirtualAccountDepositResponse,
} from '@gateway/contracts';
import { DisputesService, toDisputeResponse } from '@gateway/domain/disputes';
import { PaymentIntentsUpkeepService } from '@gateway/domain/payment-intents';
import { PaymentsSandboxService, toPaymentResponse } from '@gateway/domain/payments';
import { type TestClockReading, TestClocksService } from '@gateway/domain/test-clocks';
import { TimeRulesService } from '@gateway/domain/time-rules';
import { toVirtualAccountDepositResponse, VirtualAccountsService } from '@gateway/domain/virtual-accounts';
import { APP_CONFIG, type AppConfig, type DeveloperContext, requireTestMode } from '@gateway/platform';
import { ApiContract } from '../../http/openapi.decorators';
import { accountContext, PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';

const TEST_ONLY = 'Test mode only: in a live-mode session 403 `test_mode_required`, as a live key gets on the merchant API.';

/**
 * The merchant API's sandbox controls (`/api/v1/sandbox/…`, test keys with `sandbox:write`) for
 * the signed-in account in the session's mode, which must be test. Acting needs `keys:manage`
 * (developers, admins, owners): whoever may issue a test key can already do all of this with it;
 * viewers may only read the test clock.
 */
@PortalController('sandbox')
export class PortalSandboxController {
  constructor(
    private readonly payments: PaymentsSandboxService,
    private readonly holds: PaymentIntentsUpkeepService,
    private readonly disputes: DisputesService,
    private readonly virtualAccounts: VirtualAccountsService,
    private readonly clocks: TestClocksService,
    private readonly rules: TimeRulesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('payments/:reference/complete')
  @HttpCode(200)
  @PortalAccess({ session: 'active', permission: 'keys:manage' })
  @ApiOperation({
    summary: 'Sandbox: complete a test checkout',
    description: `As \`POST /api/v1/sandbox/payments/{reference}/complete\`: pays a pending (or declined) test payment with the documented test card for \`outcome\` (\`success\` by default, \`declined\`, \`insufficient_funds\`), then verifies it. ${TEST_ONLY}`,
  })
  @ApiContract({
    body: SandboxCompleteCheckoutRequest,
    response: PaymentResponse,
    errors: ['validation_error', 'test_mode_required', 'payment_not_found', 'invalid_state', 'gateway_timeout', 'provider_error', 'insufficient_role', 'csrf_token_invalid'],
  })
  async complete(@PortalSession() session: PortalSessionContext, @Param('reference') reference: string, @Body() body: SandboxCompleteCheckoutRequest): Promise<PaymentResponse> {
    const view = await this.payments.completeCheckout(testContext(session), reference, body.outcome ?? 'success');
    return toPaymentResponse(view, this.config.api.publicBaseUrl);
  }

  @Post('scans/abandoned-payments/run')
  @HttpCode(200)
  @PortalAccess({ session: 'active', permission: 'keys:manage' })
  @ApiOperation({
    summary: 'Sandbox: run the abandoned-payments scan now',
    description: `Marks the account's pending test payments older than the abandonment delay (24 h) as \`abandoned\`; \`as_of\` runs it as if it were that time. ${TEST_ONLY}`,
  })
  @ApiContract({ body: SandboxRunScanRequest, response: SandboxScanResponse, errors: ['validation_error', 'test_mode_required', 'insufficient_role', 'csrf_token_invalid'] })
  async abandonedPayments(@PortalSession() session: PortalSessionContext, @Body() body: SandboxRunScanRequest): Promise<SandboxScanResponse> {
    const affected = await this.payments.abandonUnpaid(testContext(session), asOf(body));
    return { scan: 'abandoned-payments', affected };
  }

  @Post('scans/scheduled-charges/run')
  @HttpCode(200)
  @PortalAccess({ session: 'active', permission: 'keys:manage' })
  @ApiOperation({
    summary: 'Sandbox: run the scheduled-charges scan now',
    description: `Charges the account's scheduled test payments whose \`charge_at\` has come; \`as_of\` runs it as if it were that time. ${TEST_ONLY}`,
  })
  @ApiContract({ body: SandboxRunScanRequest, response: SandboxScanResponse, errors: ['validation_error', 'test_mode_required', 'insufficient_role', 'csrf_token_invalid'] })
  async scheduledCharges(@PortalSession() session: PortalSessionContext, @Body() body: SandboxRunScanRequest): Promise<SandboxScanResponse> {
    const affected = await this.payments.chargeDue(testContext(session), asOf(body));
    return { scan: 'scheduled-charges', affected };
  }

  @Post('scans/payment-intent-expiry/run')
  @HttpCode(200)
  @PortalAccess({ session: 'active', permission: 'keys:manage' })
  @ApiOperation({
    summary: 'Sandbox: run the hold-expiry scan now',
    description: `Expires the account's test payment intents whose 7-day hold has lapsed (releasing the hold); \`as_of\` runs it as if it were that time. ${TEST_ONLY}`,
  })
  @ApiContract({ body: SandboxRunScanRequest, response: SandboxScanResponse, errors: ['validation_error', 'test_mode_required', 'insufficient_role', 'csrf_token_invalid'] })
  async paymentIntentExpiry(@PortalSession() session: PortalSessionContext, @Body() body: SandboxRunScanRequest): Promise<SandboxScanResponse> {
    const affected = await this.holds.expireTestHolds(testContext(session), asOf(body));
    return { scan: 'payment-intent-expiry', affected };
  }

  @Post('payments/:reference/dispute')
  @HttpCode(201)
  @PortalAccess({ session: 'active', permission: 'keys:manage' })
  @ApiOperation({
    summary: 'Sandbox: open a test dispute on a payment',
    description: `As \`POST /api/v1/sandbox/payments/{reference}/dispute\`: a chargeback for the whole of a successful test payment, created \`open\` with its hold on the wallet. ${TEST_ONLY}`,
  })
  @ApiContract({
    response: DisputeResponse,
    status: 201,
    errors: ['test_mode_required', 'payment_not_found', 'invalid_state', 'gateway_timeout', 'provider_error', 'insufficient_role', 'csrf_token_invalid'],
  })
  async openDispute(@PortalSession() session: PortalSessionContext, @Param('reference') reference: string): Promise<DisputeResponse> {
    return toDisputeResponse(await this.disputes.openSandbox(testContext(session), reference));
  }

  @Post('disputes/:reference/resolve')
  @HttpCode(200)
  @PortalAccess({ session: 'active', permission: 'keys:manage' })
  @ApiOperation({
    summary: "Sandbox: decide a test dispute as the customer's bank",
    description: `\`outcome\`: \`won\` (the hold is released) or \`lost\` (the hold is debited), from \`open\` or \`under_review\`; a decided dispute is 409 \`invalid_state\`. ${TEST_ONLY}`,
  })
  @ApiContract({
    body: SandboxResolveDisputeRequest,
    response: DisputeResponse,
    errors: ['validation_error', 'test_mode_required', 'dispute_not_found', 'invalid_state', 'gateway_timeout', 'provider_error', 'insufficient_role', 'csrf_token_invalid'],
  })
  async resolveDispute(@PortalSession() session: PortalSessionContext, @Param('reference') reference: string, @Body() body: SandboxResolveDisputeRequest): Promise<DisputeResponse> {
    return toDisputeResponse(await this.disputes.resolveSandbox(testContext(session), reference, body.outcome));
  }

  @Post('virtual-accounts/:id/deposits')
  @HttpCode(201)
  @PortalAccess({ session: 'active', permission: 'keys:manage' })
  @ApiOperation({
    summary: 'Sandbox: simulate a bank transfer into a virtual account',
    description: `As \`POST /api/v1/sandbox/virtual-accounts/{id}/deposits\`: the provider sandbox receives \`amount\` (NGN) into the account; the answer is the deposit as credited. Each call is a new transfer. ${TEST_ONLY}`,
  })
  @ApiContract({
    body: SandboxVirtualAccountDepositRequest,
    response: VirtualAccountDepositResponse,
    status: 201,
    errors: ['validation_error', 'test_mode_required', 'virtual_account_not_found', 'gateway_timeout', 'provider_error', 'insufficient_role', 'csrf_token_invalid'],
  })
  async deposit(@PortalSession() session: PortalSessionContext, @Param('id') id: string, @Body() body: SandboxVirtualAccountDepositRequest): Promise<VirtualAccountDepositResponse> {
    const { account, deposit } = await this.virtualAccounts.sandboxDeposit(testContext(session), id, { amount: body.amount, senderName: body.sender_name });
    return toVirtualAccountDepositResponse(deposit, account);
  }

  @Get('clock')
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'Sandbox: read the test clock', description: `The account's test-mode time and how far it runs ahead of real time (docs/test-clocks.md). ${TEST_ONLY}` })
  @ApiContract({ response: TestClockResponse, errors: ['test_mode_required', 'authentication_failed', 'insufficient_role'] })
  async readClock(@PortalSession() session: PortalSessionContext): Promise<TestClockResponse> {
    return toClockResponse(await this.clocks.read(testContext(session)));
  }

  @Post('clock/advance')
  @HttpCode(200)
  @PortalAccess({ session: 'active', permission: 'keys:manage' })
  @ApiOperation({
    summary: 'Sandbox: advance the test clock',
    description: `As \`POST /api/v1/sandbox/clock/advance\`: moves the account's test time forward by \`seconds\` (ten years ahead in all at most), then runs every time-driven rule at the new time; \`rules_run\` says what each did. ${TEST_ONLY}`,
  })
  @ApiContract({ body: AdvanceTestClockRequest, response: TestClockResponse, errors: ['validation_error', 'test_mode_required', 'insufficient_role', 'csrf_token_invalid'] })
  async advanceClock(@PortalSession() session: PortalSessionContext, @Body() body: AdvanceTestClockRequest): Promise<TestClockResponse> {
    const ctx = testContext(session);
    const reading = await this.clocks.advance(ctx, body.seconds);
    const rulesRun = await this.rules.runFor(ctx, reading.now);
    return { ...toClockResponse(reading), rules_run: rulesRun };
  }

  @Post('clock/reset')
  @HttpCode(200)
  @PortalAccess({ session: 'active', permission: 'keys:manage' })
  @ApiOperation({
    summary: 'Sandbox: reset the test clock to real time',
    description: `What already happened at the advanced time stays done; each rule then waits for real time to reach its next date. ${TEST_ONLY}`,
  })
  @ApiContract({ response: TestClockResponse, errors: ['test_mode_required', 'insufficient_role', 'csrf_token_invalid'] })
  async resetClock(@PortalSession() session: PortalSessionContext): Promise<TestClockResponse> {
    return toClockResponse(await this.clocks.reset(testContext(session)));
  }
}

/**
 * The session's account in test mode, refused up front in live mode (the domain services refuse
 * it too; checking here keeps every route's answer the same before anything is looked up).
 * @throws insufficient_role (no account), test_mode_required
 */
function testContext(session: PortalSessionContext): DeveloperContext {
  const ctx = accountContext(session);
  requireTestMode(ctx);
  return ctx;
}

function asOf(body: SandboxRunScanRequest): Date | undefined {
  return body.as_of ? new Date(body.as_of) : undefined;
}

function toClockResponse(reading: TestClockReading): TestClockResponse {
  return { now: reading.now.toISOString(), offset_seconds: reading.offsetSeconds };
}
