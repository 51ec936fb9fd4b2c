import { Body, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CreatePortalRefundRequest, DEFAULT_PAGE_SIZE, ListPaymentsQuery, ListQueryDto, PaymentResponse, RefundResponse } from '@gateway/contracts';
import { PaymentsService, toPaymentResponse } from '@gateway/domain/payments';
import { RefundsService, toRefundResponse } from '@gateway/domain/refunds';
import { APP_CONFIG, type AppConfig } from '@gateway/platform';
import { IdempotencyKey } from '../../http/idempotency/idempotency-key.param';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';
import { accountContext, PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';

/**
 * The account's payments in the session's mode, with the merchant API's shapes, filters and
 * errors (another account's payment is `payment_not_found`, as there); refunds from the portal.
 */
@PortalController('payments')
export class PortalPaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly refunds: RefundsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({
    summary: 'List payments (this mode)',
    description: 'As `GET /api/v1/payments`: cursor-paginated, newest first. Filters: `status`, `currency`, `customer` (reference), `from`, `to` (ISO 8601; from inclusive, to exclusive).',
  })
  @ApiContract({ list: PaymentResponse, errors: ['validation_error', 'invalid_currency', 'customer_not_found', 'authentication_failed', 'insufficient_role'] })
  async list(@PortalSession() session: PortalSessionContext, @Query() query: ListPaymentsQuery): Promise<ListResponse<PaymentResponse>> {
    const page = await this.payments.list(accountContext(session), {
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
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'Get a payment' })
  @ApiContract({ response: PaymentResponse, errors: ['payment_not_found', 'authentication_failed', 'insufficient_role'] })
  async get(@PortalSession() session: PortalSessionContext, @Param('reference') reference: string): Promise<PaymentResponse> {
    return toPaymentResponse(await this.payments.get(accountContext(session), reference), this.config.api.publicBaseUrl);
  }

  @Get(':reference/refunds')
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: "A payment's refunds", description: 'Newest first, cursor-paginated. An unknown payment (or another account’s) is 404 `payment_not_found`.' })
  @ApiContract({ list: RefundResponse, errors: ['validation_error', 'payment_not_found', 'authentication_failed', 'insufficient_role'] })
  async listRefunds(@PortalSession() session: PortalSessionContext, @Param('reference') reference: string, @Query() query: ListQueryDto): Promise<ListResponse<RefundResponse>> {
    const ctx = accountContext(session);
    // The refunds list of an unknown payment is merely empty; the portal answers 404 like the payment itself.
    await this.payments.get(ctx, reference);
    const page = await this.refunds.list(ctx, { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor, paymentReference: reference });
    return ListResponse.of(page, toRefundResponse);
  }

  @Post(':reference/refunds')
  @HttpCode(201)
  @PortalAccess({ session: 'active', permission: 'payments:refund' })
  @ApiOperation({
    summary: 'Refund a payment',
    description:
      'As `POST /api/v1/refunds` for this payment: full (`amount` omitted) or partial, paid from the wallet (422 `insufficient_wallet_balance`). Developers, admins and owners; viewers get 403 `insufficient_role`. ' +
      'With `Idempotency-Key` the refund service keeps the key with the refund: the same key again answers that refund (a double click refunds once); with another amount or reason, 422 `idempotency_key_reused`.',
  })
  @ApiContract({
    body: CreatePortalRefundRequest,
    response: RefundResponse,
    status: 201,
    errors: [
      'validation_error',
      'payment_not_found',
      'invalid_state',
      'capability_not_supported',
      'insufficient_wallet_balance',
      'idempotency_key_reused',
      'gateway_timeout',
      'provider_error',
      'insufficient_role',
      'csrf_token_invalid',
    ],
  })
  async refund(
    @PortalSession() session: PortalSessionContext,
    @Param('reference') reference: string,
    @Body() body: CreatePortalRefundRequest,
    @IdempotencyKey() idempotencyKey: string | undefined,
  ): Promise<RefundResponse> {
    const refund = await this.refunds.create(accountContext(session), { paymentReference: reference, amount: body.amount, reason: body.reason }, idempotencyKey);
    return toRefundResponse(refund);
  }
}

/** One refund of the account (the wallet page links a refund's ledger entries here, then to its payment). */
@PortalController('refunds')
export class PortalRefundsController {
  constructor(private readonly refunds: RefundsService) {}

  @Get(':reference')
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'Get a refund' })
  @ApiContract({ response: RefundResponse, errors: ['refund_not_found', 'authentication_failed', 'insufficient_role'] })
  async get(@PortalSession() session: PortalSessionContext, @Param('reference') reference: string): Promise<RefundResponse> {
    return toRefundResponse(await this.refunds.get(accountContext(session), reference));
  }
}
