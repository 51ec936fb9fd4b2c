import { Body, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  AdminDeveloperResponse,
  AdminDevelopersQuery,
  AdminDeveloperSummaryResponse,
  DEFAULT_PAGE_SIZE,
  FeeOverrideChangeResponse,
  StaffNoteRequest,
  SuspendDeveloperRequest,
} from '@gateway/contracts';
import { AuditService } from '@gateway/domain/audit';
import { type Developer, developerStatus, DevelopersService } from '@gateway/domain/developers';
import { type Amount, type Currency, CURRENCIES } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import { ApiContract } from '../../http/openapi.decorators';
import { ListResponse } from '../../http/list-response';
import { PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';
import { portalAuditActor } from './auth/portal-audit-actor';
import { toAdminDeveloper, toFeeOverrideChange } from './portal.mapper';

/**
 * Platform staff's account administration: search, e-mail verification, suspension and the fee
 * history. Staff may read accounts (admins and financial secretaries); only admins verify and suspend.
 * Every change is recorded in the audit log with who made it and from where.
 */
@PortalController('admin/developers')
export class PortalAdminDevelopersController {
  constructor(
    private readonly developers: DevelopersService,
    private readonly audit: AuditService,
  ) {}

  @Get()
  @PortalAccess({ session: 'active', platform: 'platform:developers:read' })
  @ApiOperation({
    summary: 'Search developer accounts',
    description: 'Newest first, cursor-paginated. `q`: part of the name or e-mail, case-insensitive; `status`: `active` or `suspended`.',
  })
  @ApiContract({ list: AdminDeveloperSummaryResponse, errors: ['validation_error', 'authentication_failed', 'insufficient_role'] })
  async list(@Query() query: AdminDevelopersQuery): Promise<ListResponse<AdminDeveloperSummaryResponse>> {
    const page = await this.developers.search({ q: query.q, status: query.status }, { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor });
    return ListResponse.of(page, toSummary);
  }

  @Post(':id/verify-email')
  @HttpCode(200)
  @PortalAccess({ session: 'active', platform: 'platform:developers:manage' })
  @ApiOperation({
    summary: "Mark the account's e-mail verified",
    description: 'Enables test mode for its keys. An optional `note` (up to 500 characters) is kept in the audit row. Idempotent: verifying again changes and records nothing.',
  })
  @ApiContract({ body: StaffNoteRequest, response: AdminDeveloperResponse, errors: ['validation_error', 'developer_not_found', 'insufficient_role', 'csrf_token_invalid'] })
  async verifyEmail(@PortalSession() session: PortalSessionContext, @Param('id') id: string, @Body() body: StaffNoteRequest, @Req() request: FastifyRequest): Promise<AdminDeveloperResponse> {
    const developer = await this.developers.verifyEmail(id, { record: this.audit.developerRecorder(portalAuditActor(session, request)), note: body?.note });
    return this.detail(developer);
  }

  @Post(':id/suspend')
  @HttpCode(200)
  @PortalAccess({ session: 'active', platform: 'platform:developers:suspend' })
  @ApiOperation({
    summary: 'Suspend an account',
    description:
      "At once on every API instance, the account's keys (secret and publishable, test and live) get 403 `account_suspended`, and so do its members on the portal's account routes. Staff routes are unaffected. 409 `invalid_state` if already suspended.",
  })
  @ApiContract({ body: SuspendDeveloperRequest, response: AdminDeveloperResponse, errors: ['validation_error', 'developer_not_found', 'invalid_state', 'insufficient_role', 'csrf_token_invalid'] })
  async suspend(@PortalSession() session: PortalSessionContext, @Param('id') id: string, @Body() body: SuspendDeveloperRequest, @Req() request: FastifyRequest): Promise<AdminDeveloperResponse> {
    const developer = await this.developers.suspend(id, body.reason, { record: this.audit.developerRecorder(portalAuditActor(session, request)) });
    return this.detail(developer);
  }

  @Post(':id/reactivate')
  @HttpCode(200)
  @PortalAccess({ session: 'active', platform: 'platform:developers:suspend' })
  @ApiOperation({ summary: 'Reactivate a suspended account', description: 'Its keys and members work again at once. 409 `invalid_state` if the account is active.' })
  @ApiContract({ response: AdminDeveloperResponse, errors: ['developer_not_found', 'invalid_state', 'insufficient_role', 'csrf_token_invalid'] })
  async reactivate(@PortalSession() session: PortalSessionContext, @Param('id') id: string, @Req() request: FastifyRequest): Promise<AdminDeveloperResponse> {
    const developer = await this.developers.reactivate(id, { record: this.audit.developerRecorder(portalAuditActor(session, request)) });
    return this.detail(developer);
  }

  @Get(':id/fees/history')
  @PortalAccess({ session: 'active', platform: 'platform:fees:read' })
  @ApiOperation({ summary: 'Every change of the fee overrides', description: 'Newest first: currency, new and previous amount (null = the default platform fee), who changed it and when.' })
  @ApiContract({ response: [FeeOverrideChangeResponse], errors: ['developer_not_found', 'insufficient_role'] })
  async feeHistory(@Param('id') id: string): Promise<FeeOverrideChangeResponse[]> {
    return (await this.developers.feeHistory(id)).map(toFeeOverrideChange);
  }

  private async detail(developer: Developer): Promise<AdminDeveloperResponse> {
    const fees = await Promise.all(CURRENCIES.map(async (currency): Promise<[Currency, Amount | null]> => [currency, await this.developers.feeOverride(developer.id, currency)]));
    return toAdminDeveloper(developer, fees, await this.developers.feeHistory(developer.id));
  }
}

function toSummary(developer: Developer): AdminDeveloperSummaryResponse {
  return {
    id: developer.id,
    email: developer.email,
    name: developer.name,
    status: developerStatus(developer),
    email_verified_at: developer.emailVerifiedAt?.toISOString() ?? null,
    identity_verified_at: developer.identityVerifiedAt?.toISOString() ?? null,
    suspended_at: developer.suspendedAt?.toISOString() ?? null,
    suspension_reason: developer.suspensionReason,
    created_at: developer.createdAt.toISOString(),
  };
}
