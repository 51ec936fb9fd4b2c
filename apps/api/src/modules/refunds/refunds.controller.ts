import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateRefundRequest, DEFAULT_PAGE_SIZE, ListRefundsQuery, RefundResponse } from '@gateway/contracts';
import { RefundsService, toRefundResponse } from '@gateway/domain/refunds';
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { IdempotencyKey } from '../../http/idempotency/idempotency-key.param';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';

@ApiTags('Refunds')
@Controller('refunds')
export class RefundsController {
  constructor(private readonly refunds: RefundsService) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @Authenticated({ scope: 'refunds:write' })
  @ApiOperation({
    summary: 'Refund a payment',
    description:
      'Full (`amount` omitted: what is left to refund) or partial. The wallet pays for it: the debit is ledgered at once and must be covered by the available balance (422 `insufficient_wallet_balance`); refunds of one payment never add up to more than its amount. ' +
      'Status `pending` until the provider confirms, then `processed` with `refund.completed`; a refund the provider refuses at once (answered here with status `failed`) or fails later becomes `failed`, its debit reversed by a credit and `amount_refunded` restored. The payment shows `amount_refunded`. ' +
      'Idempotent with `Idempotency-Key`; the same key with another payment, amount or reason is 422 `idempotency_key_reused`. A provider timeout is 504 `gateway_timeout` with the refund kept `pending` (debited): retry with the same key, or let the scheduler resubmit it — the provider never refunds twice.',
  })
  @ApiContract({
    body: CreateRefundRequest,
    response: RefundResponse,
    status: 201,
    errors: ['validation_error', 'payment_not_found', 'invalid_state', 'capability_not_supported', 'insufficient_wallet_balance', 'idempotency_key_reused', 'gateway_timeout', 'provider_error'],
  })
  async create(@Tenant() ctx: DeveloperContext, @Body() body: CreateRefundRequest, @IdempotencyKey() idempotencyKey: string | undefined): Promise<RefundResponse> {
    return toRefundResponse(await this.refunds.create(ctx, { paymentReference: body.payment_reference, amount: body.amount, reason: body.reason }, idempotencyKey));
  }

  @Get()
  @Authenticated({ scope: 'refunds:read' })
  @ApiOperation({ summary: 'List refunds', description: 'Cursor-paginated, newest first. Filter: `payment` (reference).' })
  @ApiContract({ list: RefundResponse, errors: ['validation_error'] })
  async list(@Tenant() ctx: DeveloperContext, @Query() query: ListRefundsQuery): Promise<ListResponse<RefundResponse>> {
    const page = await this.refunds.list(ctx, { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor, paymentReference: query.payment });
    return ListResponse.of(page, toRefundResponse);
  }

  @Get(':reference')
  @Authenticated({ scope: 'refunds:read' })
  @ApiOperation({ summary: 'Get a refund' })
  @ApiContract({ response: RefundResponse, errors: ['refund_not_found'] })
  async get(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string): Promise<RefundResponse> {
    return toRefundResponse(await this.refunds.get(ctx, reference));
  }
}
