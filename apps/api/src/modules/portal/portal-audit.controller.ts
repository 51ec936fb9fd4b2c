import { Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiProduces } from '@nestjs/swagger';
import { AdminAuditEventsQuery, AuditEventResponse, AuditEventsQuery, DEFAULT_PAGE_SIZE } from '@gateway/contracts';
import { type AuditFilter, AuditService } from '@gateway/domain/audit';
import type { FastifyRequest } from 'fastify';
import { ApiContract } from '../../http/openapi.decorators';
import { ListResponse } from '../../http/list-response';
import { accountContext, PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';
import { auditCsv, toAuditEventResponse, wantsCsv } from './portal-audit.csv';

const FILTERS =
  'Newest first, cursor-paginated. Filters: `actor` (e-mail or key hint), `action`, `target_type`, `target_id`, `from`/`to` (ISO 8601, inclusive). `Accept: text/csv` or `format=csv` streams every matching row as CSV instead (columns id, occurred_at, actor_type, actor_id, actor_label, developer_id, action, target_type, target_id, ip, before, after).';

/** The owners' view: their own account's audit log. */
@PortalController('audit')
export class PortalAuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @PortalAccess({ session: 'active', permission: 'audit:read' })
  @ApiProduces('application/json', 'text/csv')
  @ApiOperation({ summary: "The account's audit log", description: `Owners only. Every audited action concerning this account (sign-ins, keys, TOTP, IP allowlist, fees, settlements, staff actions). ${FILTERS}` })
  @ApiContract({ list: AuditEventResponse, errors: ['validation_error', 'authentication_failed', 'insufficient_role', 'account_suspended'] })
  list(@PortalSession() session: PortalSessionContext, @Query() query: AuditEventsQuery, @Req() request: FastifyRequest): Promise<ListResponse<AuditEventResponse>> {
    return respond(this.audit, { ...filterOf(query), developerId: accountContext(session).developerId }, query, request);
  }
}

/** Platform staff: every account's audit log, and the platform's own actions. */
@PortalController('admin/audit')
export class PortalAdminAuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @PortalAccess({ session: 'active', platform: 'platform:audit:read' })
  @ApiProduces('application/json', 'text/csv')
  @ApiOperation({ summary: 'The platform audit log', description: `Every account's audited actions; \`developer_id\` narrows to one account. ${FILTERS}` })
  @ApiContract({ list: AuditEventResponse, errors: ['validation_error', 'authentication_failed', 'insufficient_role'] })
  list(@Query() query: AdminAuditEventsQuery, @Req() request: FastifyRequest): Promise<ListResponse<AuditEventResponse>> {
    return respond(this.audit, { ...filterOf(query), developerId: query.developer_id }, query, request);
  }
}

async function respond(audit: AuditService, filter: AuditFilter, query: AuditEventsQuery, request: FastifyRequest): Promise<ListResponse<AuditEventResponse>> {
  if (wantsCsv(request, query.format)) return auditCsv(audit.stream(filter), 'audit-log.csv');
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  return ListResponse.of(await audit.list(filter, { limit, cursor: query.cursor }), toAuditEventResponse);
}

function filterOf(query: AuditEventsQuery): AuditFilter {
  return {
    actor: query.actor,
    action: query.action,
    targetType: query.target_type,
    targetId: query.target_id,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
  };
}
