import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CapturePaymentIntentRequest, CreatePaymentIntentRequest, PaymentIntentResponse } from '@gateway/contracts';
import { PaymentIntentsService, toPaymentIntentResponse } from '@gateway/domain/payment-intents';
import { APP_CONFIG, type AppConfig, type DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { IdempotencyKey } from '../../http/idempotency/idempotency-key.param';
import { ApiContract } from '../../http/openapi.decorators';

@ApiTags('Payment intents')
@Controller('payment-intents')
export class PaymentIntentsController {
  constructor(
    private readonly intents: PaymentIntentsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @Authenticated({ scope: 'payment_intents:write' })
  @ApiOperation({
    summary: 'Hold an amount on a card',
    description:
      '`capture_method: "manual"` places a 7-day authorization hold on the customer\'s saved card — `authorization_code`, or the last reusable card of that e-mail — and returns `intent_reference` (`PI-…`) with status `requires_capture`. A hold the issuer refuses is 402 `authorization_declined`. ' +
      'A customer with no saved card: status `requires_action` with `authorization_url`, where the customer authorizes the hold on the hosted checkout (nothing is charged); the intent is then `requires_capture` and the 7 days run from then. Unused, the link lapses after 24 hours (`PAYMENT_ABANDON_AFTER_HOURS`): status `expired`. A provider without an authorize-only checkout (Paystack) answers 422 `capability_not_supported`. ' +
      'A provider timeout is 504 `gateway_timeout`: retry with the same `Idempotency-Key` to get the intent, its hold asked for again under the same reference (never a second hold); another request under that key is 422 `idempotency_key_reused`.',
  })
  @ApiContract({
    body: CreatePaymentIntentRequest,
    response: PaymentIntentResponse,
    status: 201,
    errors: ['validation_error', 'invalid_currency', 'capability_not_supported', 'authorization_not_found', 'authorization_declined', 'idempotency_key_reused', 'gateway_timeout', 'provider_error'],
  })
  async create(@Tenant() ctx: DeveloperContext, @Body() body: CreatePaymentIntentRequest, @IdempotencyKey() idempotencyKey: string | undefined): Promise<PaymentIntentResponse> {
    const intent = await this.intents.create(
      ctx,
      { amount: body.amount, email: body.email, currency: body.currency, authorizationCode: body.authorization_code, metadata: body.metadata },
      idempotencyKey,
    );
    return toPaymentIntentResponse(intent, this.config.api.publicBaseUrl);
  }

  @Get(':reference')
  @Authenticated({ scope: 'payment_intents:read' })
  @ApiOperation({ summary: 'Get a payment intent' })
  @ApiContract({ response: PaymentIntentResponse, errors: ['payment_intent_not_found'] })
  async get(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string): Promise<PaymentIntentResponse> {
    return toPaymentIntentResponse(await this.intents.get(ctx, reference), this.config.api.publicBaseUrl);
  }

  @Post(':reference/capture')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'payment_intents:write' })
  @ApiOperation({
    summary: 'Capture a hold',
    description:
      'Captures all of the hold, or `amount` (at most the held amount), into a payment with the intent\'s reference, credited like a verified payment (fees, ledger, `payment.success`); status `succeeded`, set in the same transaction as the credit. After cancel or expiry, or before the customer authorized the hold (`requires_action`): 409 `invalid_state` naming the status. A capture racing a cancel ends as exactly one of them. ' +
      'The provider refusing the capture: 402 `authorization_declined`, nothing captured, the intent still `requires_capture`. A provider timeout: 504 `gateway_timeout`, the capture stays claimed (cancel and other amounts: 409) and a retry with the same amount — same key or a new request — finishes it without capturing twice.',
  })
  @ApiContract({ body: CapturePaymentIntentRequest, response: PaymentIntentResponse, errors: ['validation_error', 'payment_intent_not_found', 'invalid_state', 'authorization_declined', 'gateway_timeout', 'provider_error'] })
  async capture(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string, @Body() body: CapturePaymentIntentRequest): Promise<PaymentIntentResponse> {
    return toPaymentIntentResponse(await this.intents.capture(ctx, reference, body?.amount), this.config.api.publicBaseUrl);
  }

  @Post(':reference/cancel')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'payment_intents:write' })
  @ApiOperation({
    summary: 'Cancel a hold',
    description:
      'Releases the hold (status `canceled`), with no fee; from `requires_action` it closes the authorization link. After capture or expiry, or while a capture is in progress: 409 `invalid_state`. A release the provider does not confirm is retried by the scheduler until it does.',
  })
  @ApiContract({ response: PaymentIntentResponse, errors: ['payment_intent_not_found', 'invalid_state'] })
  async cancel(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string): Promise<PaymentIntentResponse> {
    return toPaymentIntentResponse(await this.intents.cancel(ctx, reference), this.config.api.publicBaseUrl);
  }
}
