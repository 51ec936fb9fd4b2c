import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateTransferRequest, DEFAULT_PAGE_SIZE, ListTransfersQuery, TransferResponse } from '@gateway/contracts';
import { TransfersService, toTransferResponse } from '@gateway/domain/transfers';
import type { DeveloperContext } from '@gateway/platform';
import { parseRequestCurrency } from '@gateway/domain/payments';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { IdempotencyKey } from '../../http/idempotency/idempotency-key.param';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';
import { transferForm } from './transfer-form';

@ApiTags('Transfers')
@Controller('transfers')
export class TransfersController {
  constructor(private readonly transfers: TransfersService) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @Authenticated({ scope: 'transfers:write', liveOnly: true })
  @ApiOperation({
    summary: 'Send a transfer',
    description:
      'Live mode only (a test key gets 403 `live_mode_required`). Two forms: the **bank form** (`amount`, `bank_code`, `account_number`, `account_name`, `narration`) saves the account as a recipient (its name as the bank resolves it) and pays it; the **wallet form** (`source: "wallet"`, `amount`, `recipient`, `reason`) pays a saved recipient. ' +
      'The amount moves from `available_balance` to `reserved_balance` at once (422 `insufficient_wallet_balance` when available is too low, nothing moved), and the transfer is `pending` until the provider settles it: `success` (the reserved amount is debited, `transfer.success`), `failed` (released, `transfer.failed`) or, later, `reversed` (the money is back in `available_balance`, `transfer.failed`). ' +
      'Idempotent with `Idempotency-Key`: a provider timeout is 504 `gateway_timeout` with the transfer kept `pending` and reserved; retry with the same key, or let the reconciliation scan finish it — the provider pays once, under the transfer\'s own reference.',
  })
  @ApiContract({
    body: CreateTransferRequest,
    response: TransferResponse,
    status: 201,
    errors: ['validation_error', 'invalid_currency', 'capability_not_supported', 'insufficient_wallet_balance', 'idempotency_key_reused', 'gateway_timeout', 'provider_error'],
  })
  async create(@Tenant() ctx: DeveloperContext, @Body() body: CreateTransferRequest, @IdempotencyKey() idempotencyKey: string | undefined): Promise<TransferResponse> {
    return toTransferResponse(await this.transfers.create(ctx, transferForm(body), idempotencyKey));
  }

  @Get()
  @Authenticated({ scope: 'transfers:read', liveOnly: true })
  @ApiOperation({ summary: 'List transfers', description: 'Cursor-paginated, newest first. Filters: `status`, `currency`, `recipient` (code), `from` (inclusive), `to` (exclusive).' })
  @ApiContract({ list: TransferResponse, errors: ['validation_error', 'invalid_currency'] })
  async list(@Tenant() ctx: DeveloperContext, @Query() query: ListTransfersQuery): Promise<ListResponse<TransferResponse>> {
    const page = await this.transfers.list(ctx, {
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      cursor: query.cursor,
      status: query.status,
      currency: query.currency === undefined ? undefined : parseRequestCurrency(query.currency),
      recipientCode: query.recipient,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
    });
    return ListResponse.of(page, toTransferResponse);
  }

  @Get(':reference')
  @Authenticated({ scope: 'transfers:read', liveOnly: true })
  @ApiOperation({ summary: 'Get a transfer' })
  @ApiContract({ response: TransferResponse, errors: ['transfer_not_found'] })
  async get(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string): Promise<TransferResponse> {
    return toTransferResponse(await this.transfers.get(ctx, reference));
  }
}
