import { Body, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AdminSettlementResponse, DEFAULT_PAGE_SIZE, ListSettlementsQuery, RejectSettlementRequest } from '@gateway/contracts';
import { DevelopersService } from '@gateway/domain/developers';
import { UsersService } from '@gateway/domain/identity';
import { LedgerService } from '@gateway/domain/ledger';
import { parseRequestCurrency } from '@gateway/domain/payments';
import { type Settlement, SettlementsService, toSettlementDecisionResponse, toSettlementResponse } from '@gateway/domain/settlements';
import type { FastifyRequest } from 'fastify';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';
import { PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';
import { portalAuditActor } from './auth/portal-audit-actor';

/**
 * The settlement approval queue of platform staff (admins and financial secretaries): approve, or
 * reject with a reason. Nobody approves a settlement they requested; above the two-person
 * threshold two different people must approve. Every decision records who, when and from where.
 */
@PortalController('admin/settlements')
export class PortalAdminSettlementsController {
  constructor(
    private readonly settlements: SettlementsService,
    private readonly developers: DevelopersService,
    private readonly users: UsersService,
    private readonly ledger: LedgerService,
  ) {}

  @Get()
  @PortalAccess({ session: 'active', platform: 'platform:settlements:read' })
  @ApiOperation({ summary: "Every account's settlements", description: 'Newest first; `?status=pending_approval` is the approval queue. Each with the requester, the decisions so far and the account\'s available balance.' })
  @ApiContract({ list: AdminSettlementResponse, errors: ['validation_error', 'invalid_currency', 'insufficient_role'] })
  async list(@Query() query: ListSettlementsQuery): Promise<ListResponse<AdminSettlementResponse>> {
    const page = await this.settlements.list(null, {
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      cursor: query.cursor,
      status: query.status,
      currency: query.currency === undefined ? undefined : parseRequestCurrency(query.currency),
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
    });
    const items = await this.present(page.items);
    return new ListResponse(items, { next_cursor: page.nextCursor, has_more: page.hasMore, limit: page.limit });
  }

  @Get(':reference')
  @PortalAccess({ session: 'active', platform: 'platform:settlements:read' })
  @ApiOperation({ summary: 'A settlement, with its requester and decisions' })
  @ApiContract({ response: AdminSettlementResponse, errors: ['settlement_not_found', 'insufficient_role'] })
  async get(@Param('reference') reference: string): Promise<AdminSettlementResponse> {
    return (await this.present([await this.settlements.getAny(reference)]))[0];
  }

  @Post(':reference/approve')
  @HttpCode(200)
  @PortalAccess({ session: 'active', platform: 'platform:settlements:approve' })
  @ApiOperation({
    summary: 'Approve a settlement',
    description: 'Once enough different people approved (two above the two-person threshold), the settlement is `approved` and paid out at once. The requester cannot approve (403 `insufficient_role`); a person approves once (409 `conflict`).',
  })
  @ApiContract({ response: AdminSettlementResponse, errors: ['settlement_not_found', 'invalid_state', 'conflict', 'insufficient_role', 'csrf_token_invalid'] })
  async approve(@PortalSession() session: PortalSessionContext, @Param('reference') reference: string, @Req() request: FastifyRequest): Promise<AdminSettlementResponse> {
    const settlement = await this.settlements.approve(reference, { userId: session.actor.userId, ip: request.clientIp ?? request.ip, audit: portalAuditActor(session, request), requestId: request.id });
    return (await this.present([settlement]))[0];
  }

  @Post(':reference/reject')
  @HttpCode(200)
  @PortalAccess({ session: 'active', platform: 'platform:settlements:approve' })
  @ApiOperation({ summary: 'Reject a settlement', description: 'With a reason the account sees; the reserved amount is released.' })
  @ApiContract({ body: RejectSettlementRequest, response: AdminSettlementResponse, errors: ['validation_error', 'settlement_not_found', 'invalid_state', 'conflict', 'insufficient_role', 'csrf_token_invalid'] })
  async reject(
    @PortalSession() session: PortalSessionContext,
    @Param('reference') reference: string,
    @Body() body: RejectSettlementRequest,
    @Req() request: FastifyRequest,
  ): Promise<AdminSettlementResponse> {
    const settlement = await this.settlements.reject(reference, { userId: session.actor.userId, ip: request.clientIp ?? request.ip, audit: portalAuditActor(session, request), requestId: request.id }, body.reason);
    return (await this.present([settlement]))[0];
  }

  /** Adds what staff decide with: who asked, the decisions, the account's name and available balance. */
  private async present(settlements: Settlement[]): Promise<AdminSettlementResponse[]> {
    const decisions = await this.settlements.decisionsOf(settlements.map((s) => s.id));
    const userIds = [...new Set([...settlements.map((s) => s.requestedBy), ...decisions.map((d) => d.userId)].filter((id): id is string => id !== null))];
    const emails = new Map(await Promise.all(userIds.map(async (id): Promise<[string, string]> => [id, (await this.users.get(id)).email])));
    return Promise.all(
      settlements.map(async (s): Promise<AdminSettlementResponse> => ({
        ...toSettlementResponse(s),
        developer_id: s.developerId,
        developer_name: (await this.developers.get(s.developerId)).name,
        requested_by: s.requestedBy ? (emails.get(s.requestedBy) ?? null) : null,
        requested_ip: s.requestedIp,
        approvals_required: s.approvalsRequired,
        decisions: decisions.filter((d) => d.settlementId === s.id).map((d) => toSettlementDecisionResponse(d, (id) => emails.get(id) ?? id)),
        available_balance: (await this.ledger.balance({ developerId: s.developerId, mode: 'live' }, s.currency)).available.toNumber(),
      })),
    );
  }
}
