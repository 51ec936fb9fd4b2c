import { Body, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  AdminDeveloperResponse,
  FeeOverrideResponse,
  ProvisionDeveloperRequest,
  ProvisionedDeveloperResponse,
  SetFeeOverrideRequest,
  StaffNoteRequest,
} from '@gateway/contracts';
import { AuditService } from '@gateway/domain/audit';
import { type Developer, DevelopersService } from '@gateway/domain/developers';
import { DeveloperProvisioningService } from '@gateway/domain/identity';
import { type Amount, type Currency, CURRENCIES, DomainError, isCurrency, parseRequestAmount } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import { ApiContract } from '../../http/openapi.decorators';
import { PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';
import { portalAuditActor } from './auth/portal-audit-actor';
import { toAdminDeveloper, toFeeOverride, toInvitation } from './portal.mapper';

/**
 * Platform staff pages: provisioning accounts, identity verification and fee overrides (search,
 * e-mail verification, suspension and fee history are in portal-admin-developers.controller.ts). Platform
 * admins only, except that financial secretaries may read fees.
 */
@PortalController('admin')
export class PortalAdminController {
  constructor(
    private readonly developers: DevelopersService,
    private readonly provisioning: DeveloperProvisioningService,
    private readonly audit: AuditService,
  ) {}

  @Post('developers')
  @HttpCode(201)
  @PortalAccess({ session: 'active', platform: 'platform:developers:manage' })
  @ApiOperation({ summary: 'Provision a developer account', description: "Creates the account and e-mails its owner an invitation (accepting it verifies the account's e-mail)." })
  @ApiContract({ body: ProvisionDeveloperRequest, response: ProvisionedDeveloperResponse, status: 201, errors: ['validation_error', 'conflict', 'insufficient_role', 'csrf_token_invalid'] })
  async provision(@PortalSession() session: PortalSessionContext, @Body() body: ProvisionDeveloperRequest, @Req() request: FastifyRequest): Promise<ProvisionedDeveloperResponse> {
    const { developer, invitation } = await this.provisioning.provision(body, session.actor.userId, portalAuditActor(session, request));
    return { developer: toAdminDeveloper(developer, []), owner_invitation: toInvitation(invitation) };
  }

  @Get('developers/:id')
  @PortalAccess({ session: 'active', platform: 'platform:fees:read' })
  @ApiOperation({ summary: 'A developer account with its fee overrides', description: 'Status, verification times, the current fee overrides and every change of them (`fee_override_history`, newest first).' })
  @ApiContract({ response: AdminDeveloperResponse, errors: ['developer_not_found', 'insufficient_role'] })
  async get(@Param('id') id: string): Promise<AdminDeveloperResponse> {
    const developer = await this.developers.get(id);
    return toAdminDeveloper(developer, await this.fees(developer), await this.developers.feeHistory(id));
  }

  @Post('developers/:id/verify-identity')
  @HttpCode(200)
  @PortalAccess({ session: 'active', platform: 'platform:developers:manage' })
  @ApiOperation({
    summary: 'Mark identity verification complete',
    description: 'Enables live mode for the account. An optional `note` (up to 500 characters) is kept in the audit row. Idempotent: verifying again changes and records nothing.',
  })
  @ApiContract({ body: StaffNoteRequest, response: AdminDeveloperResponse, errors: ['validation_error', 'developer_not_found', 'insufficient_role', 'csrf_token_invalid'] })
  async verifyIdentity(@PortalSession() session: PortalSessionContext, @Param('id') id: string, @Body() body: StaffNoteRequest, @Req() request: FastifyRequest): Promise<AdminDeveloperResponse> {
    const developer = await this.developers.verifyIdentity(id, { record: this.audit.developerRecorder(portalAuditActor(session, request)), note: body?.note });
    return toAdminDeveloper(developer, await this.fees(developer));
  }

  @Get('developers/:id/fees')
  @PortalAccess({ session: 'active', platform: 'platform:fees:read' })
  @ApiOperation({ summary: 'Fee overrides of an account', description: 'Currencies without an override pay the default platform fee.' })
  @ApiContract({ response: [FeeOverrideResponse], errors: ['developer_not_found', 'insufficient_role'] })
  async listFees(@Param('id') id: string): Promise<FeeOverrideResponse[]> {
    const developer = await this.developers.get(id);
    return toAdminDeveloper(developer, await this.fees(developer)).fee_overrides;
  }

  @Put('developers/:id/fees/:currency')
  @PortalAccess({ session: 'active', platform: 'platform:fees:write' })
  @ApiOperation({ summary: 'Set the platform fee override for one currency', description: 'A flat amount per successful transaction; 0 means no platform fee. Every change is kept (GET …/fees/history) and audited.' })
  @ApiContract({ body: SetFeeOverrideRequest, response: FeeOverrideResponse, errors: ['validation_error', 'invalid_currency', 'developer_not_found', 'insufficient_role', 'csrf_token_invalid'] })
  async setFee(
    @PortalSession() session: PortalSessionContext,
    @Param('id') id: string,
    @Param('currency') currency: string,
    @Body() body: SetFeeOverrideRequest,
    @Req() request: FastifyRequest,
  ): Promise<FeeOverrideResponse> {
    if (!isCurrency(currency)) throw new DomainError('invalid_currency', `Currency must be one of ${CURRENCIES.join(', ')}.`);
    const amount = parseRequestAmount(body.amount);
    await this.developers.setFeeOverride(id, currency, amount, session.actor.email, this.audit.developerRecorder(portalAuditActor(session, request)));
    return toFeeOverride(currency, amount);
  }

  private async fees(developer: Developer): Promise<Array<[Currency, Amount | null]>> {
    return Promise.all(CURRENCIES.map(async (currency): Promise<[Currency, Amount | null]> => [currency, await this.developers.feeOverride(developer.id, currency)]));
  }
}
