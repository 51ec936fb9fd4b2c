import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateTransferRecipientRequest, DEFAULT_PAGE_SIZE, ListQueryDto, TransferRecipientResponse } from '@gateway/contracts';
import { TransferRecipientsService, toTransferRecipientResponse } from '@gateway/domain/transfers';
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';

@ApiTags('Transfers')
@Controller('transfers/recipients')
export class TransferRecipientsController {
  constructor(private readonly recipients: TransferRecipientsService) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @Authenticated({ scope: 'transfers:write', liveOnly: true })
  @ApiOperation({
    summary: 'Save a transfer recipient',
    description:
      'A bank account to pay with the wallet form of `POST /transfers`. The account is resolved at its bank through the provider: `account_name` is the bank\'s (an account the bank does not know is a `validation_error` on `account_number`). Saving the same account in the same currency again answers the saved recipient. Live mode only.',
  })
  @ApiContract({
    body: CreateTransferRecipientRequest,
    response: TransferRecipientResponse,
    status: 201,
    errors: ['validation_error', 'invalid_currency', 'capability_not_supported', 'gateway_timeout', 'provider_error'],
  })
  async create(@Tenant() ctx: DeveloperContext, @Body() body: CreateTransferRecipientRequest): Promise<TransferRecipientResponse> {
    return toTransferRecipientResponse(await this.recipients.findOrCreate(ctx, { bankCode: body.bank_code, accountNumber: body.account_number, currency: body.currency }));
  }

  @Get()
  @Authenticated({ scope: 'transfers:read', liveOnly: true })
  @ApiOperation({ summary: 'List transfer recipients', description: 'Cursor-paginated, newest first.' })
  @ApiContract({ list: TransferRecipientResponse, errors: ['validation_error'] })
  async list(@Tenant() ctx: DeveloperContext, @Query() query: ListQueryDto): Promise<ListResponse<TransferRecipientResponse>> {
    const page = await this.recipients.list(ctx, { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor });
    return ListResponse.of(page, toTransferRecipientResponse);
  }
}
