import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateVirtualAccountRequest, DEFAULT_PAGE_SIZE, ListQueryDto, ListVirtualAccountsQuery, VirtualAccountDepositResponse, VirtualAccountResponse } from '@gateway/contracts';
import { toVirtualAccountDepositResponse, toVirtualAccountResponse, VirtualAccountsService } from '@gateway/domain/virtual-accounts';
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';

@ApiTags('Virtual accounts')
@Controller('virtual-accounts')
export class VirtualAccountsController {
  constructor(private readonly accounts: VirtualAccountsService) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @Authenticated({ scope: 'virtual_accounts:write' })
  @ApiOperation({
    summary: 'Open a dedicated virtual account for a customer',
    description:
      'A bank account number (NGN) of the customer\'s own, opened at the provider; bank transfers into it credit the wallet (`virtual_account.credited`, see docs/virtual-accounts.md). ' +
      'At most one active account per customer: 409 `virtual_account_exists` (deactivate the old one first). The provider needs the customer\'s first and last name (the customer\'s `name`, two words at least) and phone: ' +
      'missing ones are 400 `validation_error` naming `customer.name` / `customer.phone`. 422 `capability_not_supported` where the provider account offers no dedicated accounts.',
  })
  @ApiContract({
    body: CreateVirtualAccountRequest,
    response: VirtualAccountResponse,
    status: 201,
    errors: ['validation_error', 'customer_not_found', 'virtual_account_exists', 'capability_not_supported', 'gateway_timeout', 'provider_error'],
  })
  async create(@Tenant() ctx: DeveloperContext, @Body() body: CreateVirtualAccountRequest): Promise<VirtualAccountResponse> {
    return toVirtualAccountResponse(await this.accounts.create(ctx, body.customer_reference));
  }

  @Get()
  @Authenticated({ scope: 'virtual_accounts:read' })
  @ApiOperation({ summary: 'List virtual accounts', description: 'Cursor-paginated, newest first. Filters: `status` (`active`, `inactive`), `customer` (reference).' })
  @ApiContract({ list: VirtualAccountResponse, errors: ['validation_error'] })
  async list(@Tenant() ctx: DeveloperContext, @Query() query: ListVirtualAccountsQuery): Promise<ListResponse<VirtualAccountResponse>> {
    const page = await this.accounts.list(ctx, { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor, status: query.status, customerReference: query.customer });
    return ListResponse.of(page, toVirtualAccountResponse);
  }

  @Get(':id')
  @Authenticated({ scope: 'virtual_accounts:read' })
  @ApiOperation({ summary: 'Get a virtual account' })
  @ApiContract({ response: VirtualAccountResponse, errors: ['virtual_account_not_found'] })
  async get(@Tenant() ctx: DeveloperContext, @Param('id') id: string): Promise<VirtualAccountResponse> {
    return toVirtualAccountResponse(await this.accounts.get(ctx, id));
  }

  @Post(':id/deactivate')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'virtual_accounts:write' })
  @ApiOperation({
    summary: 'Deactivate a virtual account',
    description:
      'Status `inactive`; the customer may then get a new account. Money still sent to its number is credited all the same (money received is never ignored). An inactive account: 409 `invalid_state` naming the status.',
  })
  @ApiContract({ response: VirtualAccountResponse, errors: ['virtual_account_not_found', 'invalid_state'] })
  async deactivate(@Tenant() ctx: DeveloperContext, @Param('id') id: string): Promise<VirtualAccountResponse> {
    return toVirtualAccountResponse(await this.accounts.deactivate(ctx, id));
  }

  @Get(':id/deposits')
  @Authenticated({ scope: 'virtual_accounts:read' })
  @ApiOperation({ summary: "A virtual account's deposits", description: 'Bank transfers received into the account, as credited (fees and net), newest first.' })
  @ApiContract({ list: VirtualAccountDepositResponse, errors: ['validation_error', 'virtual_account_not_found'] })
  async deposits(@Tenant() ctx: DeveloperContext, @Param('id') id: string, @Query() query: ListQueryDto): Promise<ListResponse<VirtualAccountDepositResponse>> {
    const { account, page } = await this.accounts.listDeposits(ctx, id, { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor });
    return ListResponse.of(page, (deposit) => toVirtualAccountDepositResponse(deposit, account));
  }
}
