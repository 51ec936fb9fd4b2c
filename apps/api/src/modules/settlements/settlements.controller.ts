import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DEFAULT_PAGE_SIZE, ListSettlementsQuery, SettlementResponse } from '@gateway/contracts';
import { parseRequestCurrency } from '@gateway/domain/payments';
import { SettlementsService, toSettlementResponse } from '@gateway/domain/settlements';
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';

const LIFECYCLE =
  'A settlement withdraws the wallet to the account\'s registered bank account (live mode; requested in the portal, or by auto-settlement): ' +
  '`pending_approval` with its amount reserved → `approved` by platform staff (two people above the two-person threshold) → `processing` (the provider pays it) → ' +
  '`completed` (a `settlement` ledger entry, `withdrawal.completed`) or `failed` (released); or `rejected` (released, with `rejection_reason`). A test key sees none.';

@ApiTags('Wallet')
@Controller('wallet/settlements')
export class SettlementsController {
  constructor(private readonly settlements: SettlementsService) {}

  @Get()
  @Authenticated({ scope: 'wallet:read' })
  @ApiOperation({ summary: 'List settlements', description: `Cursor-paginated, newest first. Filters: \`status\`, \`currency\`, \`from\` (inclusive), \`to\` (exclusive). ${LIFECYCLE}` })
  @ApiContract({ list: SettlementResponse, errors: ['validation_error', 'invalid_currency'] })
  async list(@Tenant() ctx: DeveloperContext, @Query() query: ListSettlementsQuery): Promise<ListResponse<SettlementResponse>> {
    const page = await this.settlements.list(ctx, {
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      cursor: query.cursor,
      status: query.status,
      currency: query.currency === undefined ? undefined : parseRequestCurrency(query.currency),
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
    });
    return ListResponse.of(page, toSettlementResponse);
  }

  @Get(':reference')
  @Authenticated({ scope: 'wallet:read' })
  @ApiOperation({ summary: 'Get a settlement', description: LIFECYCLE })
  @ApiContract({ response: SettlementResponse, errors: ['settlement_not_found'] })
  async get(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string): Promise<SettlementResponse> {
    return toSettlementResponse(await this.settlements.get(ctx, reference));
  }
}
