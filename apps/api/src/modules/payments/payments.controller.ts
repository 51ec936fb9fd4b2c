import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ChargePaymentRequest,
  DEFAULT_PAGE_SIZE,
  InitializePaymentResponse,
  InitializePaymentRequest,
  ListPaymentsQuery,
  PaymentPreviewResponse,
  PaymentResponse,
  PreviewPaymentRequest,
  VerifyPaymentRequest,
} from '@gateway/contracts';
import { PaymentChargesService, PaymentConfirmationService, PaymentPreviewService, PaymentsService, toPaymentPreviewResponse, toPaymentResponse } from '@gateway/domain/payments';
import { APP_CONFIG, type AppConfig, type DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { IdempotencyBodyKey } from '../../http/idempotency/idempotency-body-key.decorator';
import { IdempotencyKey } from '../../http/idempotency/idempotency-key.param';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';

@ApiTags('Payments')
@Controller('payments')
export class PaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly confirmation: PaymentConfirmationService,
    private readonly charges: PaymentChargesService,
    private readonly previews: PaymentPreviewService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('initialize')
  @Idempotent()
  @HttpCode(201)
  @Authenticated({ scope: 'payments:write' })
  @IdempotencyBodyKey('idempotency_key')
  @ApiOperation({
    summary: 'Initialize a payment',
    description:
      'Creates a pending payment and returns its `reference` and `authorization_url` (a gateway URL that redirects the customer to the hosted checkout). ' +
      'The customer is created by e-mail when new. With `authorization_code` and `charge_at` (more than 60 s ahead, UTC) it schedules a charge of a saved card instead (`status: "scheduled"`, no checkout). ' +
      '`splits` share the payment among sub-accounts: each share is a fraction of the amount (up to 4 decimals), rounded down to the cent; the sum must be at most 1.0; fees are paid from the remainder, which stays in the wallet. ' +
      'Idempotent with the `Idempotency-Key` header or `idempotency_key` in the body; after a 504 `gateway_timeout` retry with the same key: the same payment is resumed and money moves once.',
  })
  @ApiContract({
    body: InitializePaymentRequest,
    response: InitializePaymentResponse,
    status: 201,
    errors: ['validation_error', 'invalid_currency', 'capability_not_supported', 'invalid_charge_at', 'split_shares_exceed_total', 'authorization_not_found', 'gateway_timeout', 'provider_error'],
  })
  async initialize(
    @Tenant() ctx: DeveloperContext,
    @Body() body: InitializePaymentRequest,
    @IdempotencyKey('idempotency_key') idempotencyKey: string | undefined,
  ): Promise<InitializePaymentResponse> {
    const view = await this.payments.initialize(
      ctx,
      {
        amount: body.amount,
        email: body.email,
        currency: body.currency,
        callbackUrl: body.callback_url,
        metadata: body.metadata,
        authorizationCode: body.authorization_code,
        chargeAt: body.charge_at,
        splits: body.splits,
      },
      idempotencyKey,
    );
    const payment = toPaymentResponse(view, this.config.api.publicBaseUrl);
    return { reference: payment.reference, authorization_url: payment.authorization_url, status: payment.status };
  }

  @Post('charge')
  @Idempotent()
  @HttpCode(201)
  @Authenticated({ scope: 'payments:write' })
  @ApiOperation({
    summary: 'Charge a saved card (repeat charge)',
    description:
      'Charges the card behind `authorization_code` (the `AUTH_…` code of an earlier successful payment of the same customer e-mail, developer and mode; anyone else\'s is 404 `authorization_not_found`) now. ' +
      'A success is credited exactly like a verified payment (fees, ledger, `payment.success`); a decline is a `failed` payment with `payment.failed`. ' +
      'Idempotent with `Idempotency-Key`; after a 504 `gateway_timeout` retry with the same key: the same payment is resumed and the card is charged once.',
  })
  @ApiContract({
    body: ChargePaymentRequest,
    response: PaymentResponse,
    status: 201,
    errors: ['validation_error', 'invalid_currency', 'capability_not_supported', 'split_shares_exceed_total', 'authorization_not_found', 'gateway_timeout', 'provider_error'],
  })
  async charge(@Tenant() ctx: DeveloperContext, @Body() body: ChargePaymentRequest, @IdempotencyKey() idempotencyKey: string | undefined): Promise<PaymentResponse> {
    const view = await this.charges.chargeNow(
      ctx,
      { authorizationCode: body.authorization_code, email: body.email, amount: body.amount, currency: body.currency, metadata: body.metadata, splits: body.splits },
      idempotencyKey,
    );
    return toPaymentResponse(view, this.config.api.publicBaseUrl);
  }

  @Post('preview')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'payments:read' })
  @ApiOperation({
    summary: 'Preview the fees and splits of a payment',
    description:
      'Where the money of a payment of `amount` in `currency` with `splits` would go if it succeeded, computed exactly as verify computes and ledgers it: the account\'s platform fee, the provider fee estimated from the provider\'s published price (verify uses the fee the provider reports), each split\'s share and what stays in the wallet. ' +
      'Checked like initialize (amount limits, currency, active sub-accounts, shares ≤ 1.0); nothing is written and the provider is not called (an `Idempotency-Key` is accepted as on every POST).',
  })
  @ApiContract({
    body: PreviewPaymentRequest,
    response: PaymentPreviewResponse,
    errors: ['validation_error', 'invalid_currency', 'capability_not_supported', 'split_shares_exceed_total'],
  })
  async preview(@Tenant() ctx: DeveloperContext, @Body() body: PreviewPaymentRequest): Promise<PaymentPreviewResponse> {
    return toPaymentPreviewResponse(await this.previews.preview(ctx, body));
  }

  @Post('verify')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'payments:write' })
  @ApiOperation({
    summary: 'Verify a payment',
    description:
      'Confirms the payment with the provider. On success the wallet is credited (net of the platform and provider fees, split shares ledgered), exactly once however often and concurrently it is verified, and `payment.success` is sent. A declined payment becomes `failed` (`payment.failed`). Returns the payment, including `status`, `amount` and `net_amount`.',
  })
  @ApiContract({ body: VerifyPaymentRequest, response: PaymentResponse, errors: ['validation_error', 'payment_not_found', 'gateway_timeout', 'provider_error'] })
  async verify(@Tenant() ctx: DeveloperContext, @Body() body: VerifyPaymentRequest): Promise<PaymentResponse> {
    return toPaymentResponse(await this.confirmation.verify(ctx, body.reference), this.config.api.publicBaseUrl);
  }

  @Delete(':reference/schedule')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'payments:write' })
  @ApiOperation({
    summary: 'Cancel a scheduled charge',
    description:
      'Before the scheduler triggers it, the scheduled payment becomes `cancelled` (repeating the cancel answers the same). Once triggered: 409 `schedule_already_triggered`. A payment that was never scheduled: 409 `invalid_state`.',
  })
  @ApiContract({ response: PaymentResponse, errors: ['payment_not_found', 'schedule_already_triggered', 'invalid_state'] })
  async cancelSchedule(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string): Promise<PaymentResponse> {
    return toPaymentResponse(await this.charges.cancelSchedule(ctx, reference), this.config.api.publicBaseUrl);
  }

  @Get()
  @Authenticated({ scope: 'payments:read' })
  @ApiOperation({ summary: 'List payments', description: 'Cursor-paginated, newest first. Filters: `status`, `currency`, `customer` (reference), `from`, `to` (ISO 8601; from inclusive, to exclusive).' })
  @ApiContract({ list: PaymentResponse, errors: ['validation_error', 'invalid_currency', 'customer_not_found'] })
  async list(@Tenant() ctx: DeveloperContext, @Query() query: ListPaymentsQuery): Promise<ListResponse<PaymentResponse>> {
    const page = await this.payments.list(ctx, {
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      cursor: query.cursor,
      status: query.status,
      currency: query.currency,
      customerReference: query.customer,
      from: query.from,
      to: query.to,
    });
    return ListResponse.of(page, (view) => toPaymentResponse(view, this.config.api.publicBaseUrl));
  }

  @Get(':reference')
  @Authenticated({ scope: 'payments:read' })
  @ApiOperation({ summary: 'Get a payment' })
  @ApiContract({ response: PaymentResponse, errors: ['payment_not_found'] })
  async get(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string): Promise<PaymentResponse> {
    return toPaymentResponse(await this.payments.get(ctx, reference), this.config.api.publicBaseUrl);
  }
}
