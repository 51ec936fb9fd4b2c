import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateSubaccountRequest, DEFAULT_PAGE_SIZE, ListQueryDto, SubaccountResponse } from '@gateway/contracts';
import { SubaccountsService, toSubaccountResponse } from '@gateway/domain/subaccounts';
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';

@ApiTags('Sub-accounts')
@Controller('subaccounts')
export class SubaccountsController {
  constructor(private readonly subaccounts: SubaccountsService) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @Authenticated({ scope: 'subaccounts:write' })
  @ApiOperation({
    summary: 'Create a sub-account',
    description:
      'A bank account that receives shares of split payments (`splits[].subaccount` on initialize names its `code`, `ACCT_…`). ' +
      '`bank_code`: any 3–6 digit code (the provider owns the bank list); `account_number`: a 10-digit NUBAN string. ' +
      'One sub-account per bank account, developer and mode: a duplicate is 409 `subaccount_exists`. ' +
      'Responses carry only `account_number_last4`, never the full account number.',
  })
  @ApiContract({ body: CreateSubaccountRequest, response: SubaccountResponse, status: 201, errors: ['validation_error', 'subaccount_exists'] })
  async create(@Tenant() ctx: DeveloperContext, @Body() body: CreateSubaccountRequest): Promise<SubaccountResponse> {
    const created = await this.subaccounts.create(ctx, {
      businessName: body.business_name,
      bankCode: body.bank_code,
      accountNumber: body.account_number,
      accountName: body.account_name,
      description: body.description,
      metadata: body.metadata,
    });
    return toSubaccountResponse(created);
  }

  @Get()
  @Authenticated({ scope: 'subaccounts:read' })
  @ApiOperation({ summary: 'List sub-accounts', description: 'Cursor-paginated, newest first.' })
  @ApiContract({ list: SubaccountResponse, errors: ['validation_error'] })
  async list(@Tenant() ctx: DeveloperContext, @Query() query: ListQueryDto): Promise<ListResponse<SubaccountResponse>> {
    const page = await this.subaccounts.list(ctx, { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor });
    return ListResponse.of(page, toSubaccountResponse);
  }

  @Get(':code')
  @Authenticated({ scope: 'subaccounts:read' })
  @ApiOperation({ summary: 'Get a sub-account', description: "Another developer's or the other mode's sub-account is 404 like a missing one." })
  @ApiContract({ response: SubaccountResponse, errors: ['subaccount_not_found'] })
  async get(@Tenant() ctx: DeveloperContext, @Param('code') code: string): Promise<SubaccountResponse> {
    return toSubaccountResponse(await this.subaccounts.get(ctx, code));
  }
}
