import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PaymentResponse, SandboxCompleteCheckoutRequest, SandboxRunScanRequest, SandboxScanResponse } from '@gateway/contracts';
import { PaymentIntentsUpkeepService } from '@gateway/domain/payment-intents';
import { PaymentsSandboxService, toPaymentResponse } from '@gateway/domain/payments';
import { APP_CONFIG, type AppConfig, type DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { ApiContract } from '../../http/openapi.decorators';

@ApiTags('Sandbox (test mode)')
@Controller('sandbox')
export class SandboxController {
  constructor(
    private readonly sandbox: PaymentsSandboxService,
    private readonly holds: PaymentIntentsUpkeepService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('payments/:reference/complete')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'sandbox:write' })
  @ApiOperation({
    summary: 'Complete a test checkout',
    description:
      'Pays a pending test payment as a customer would on the hosted checkout, with the documented test card for `outcome` (`success` (default), `declined`, `insufficient_funds`), then verifies it. Test keys only (403 `test_mode_required`).',
  })
  @ApiContract({ body: SandboxCompleteCheckoutRequest, response: PaymentResponse, errors: ['validation_error', 'test_mode_required', 'payment_not_found', 'invalid_state'] })
  async complete(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string, @Body() body: SandboxCompleteCheckoutRequest): Promise<PaymentResponse> {
    const view = await this.sandbox.completeCheckout(ctx, reference, body.outcome ?? 'success');
    return toPaymentResponse(view, this.config.api.publicBaseUrl);
  }

  @Post('scans/abandoned-payments/run')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'sandbox:write' })
  @ApiOperation({
    summary: 'Run the abandoned-payments scan now',
    description:
      "Marks this developer's pending test payments older than the abandonment delay (24 h by default) as `abandoned`, as the scheduler does every few minutes. `as_of` runs it as if it were that time, so the flow can be tried without waiting. Test keys only.",
  })
  @ApiContract({ body: SandboxRunScanRequest, response: SandboxScanResponse, errors: ['validation_error', 'test_mode_required'] })
  async abandonedPayments(@Tenant() ctx: DeveloperContext, @Body() body: SandboxRunScanRequest): Promise<SandboxScanResponse> {
    const affected = await this.sandbox.abandonUnpaid(ctx, body.as_of ? new Date(body.as_of) : undefined);
    return { scan: 'abandoned-payments', affected };
  }

  @Post('scans/scheduled-charges/run')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'sandbox:write' })
  @ApiOperation({
    summary: 'Run the scheduled-charges scan now',
    description:
      "Charges this developer's scheduled test payments whose `charge_at` has come, as the scheduler does every minute. `as_of` runs it as if it were that time. Test keys only.",
  })
  @ApiContract({ body: SandboxRunScanRequest, response: SandboxScanResponse, errors: ['validation_error', 'test_mode_required'] })
  async scheduledCharges(@Tenant() ctx: DeveloperContext, @Body() body: SandboxRunScanRequest): Promise<SandboxScanResponse> {
    const affected = await this.sandbox.chargeDue(ctx, body.as_of ? new Date(body.as_of) : undefined);
    return { scan: 'scheduled-charges', affected };
  }

  @Post('scans/payment-intent-expiry/run')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'sandbox:write' })
  @ApiOperation({
    summary: 'Run the hold-expiry scan now',
    description: "Expires this developer's test payment intents whose 7-day hold has lapsed (releasing the hold), as the scheduler does every five minutes. `as_of` runs it as if it were that time. Test keys only.",
  })
  @ApiContract({ body: SandboxRunScanRequest, response: SandboxScanResponse, errors: ['validation_error', 'test_mode_required'] })
  async paymentIntentExpiry(@Tenant() ctx: DeveloperContext, @Body() body: SandboxRunScanRequest): Promise<SandboxScanResponse> {
    const affected = await this.holds.expireTestHolds(ctx, body.as_of ? new Date(body.as_of) : undefined);
    return { scan: 'payment-intent-expiry', affected };
  }
}
