import { Body, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  AdminDeveloperResponse,
  FeeOverrideResponse,
  ProvisionDeveloperRequest,
  ProvisionedDeveloperResponse,
  SetFeeOverrideRequest,
} from '@gateway/contracts';
import { type Developer, DevelopersService } from '@gateway/domain/developers';
import { DeveloperProvisioningService } from '@gateway/domain/identity';
import { type Amount, type Currency, CURRENCIES, DomainError, isCurrency, parseRequestAmount } from '@gateway/platform';
import { ApiContract } from '../../http/openapi.decorators';
import { PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';
import { toAdminDeveloper, toFeeOverride, toInvitation } from './portal.mapper';

/**
 * Platform staff pages: provisioning accounts, identity verification and fee overrides. Platform
 * admins only, except that financial secretaries may read fees.
 */
@PortalController('admin')
export class PortalAdminController {
  constructor(
    private readonly developers: DevelopersService,
    private readonly provisioning: DeveloperProvisioningService,
  ) {}

  @Post('developers')
  @HttpCode(201)
  @PortalAccess({ session: 'active', platform: 'platform:developers:manage' })
  @ApiOperation({ summary: 'Provision a developer account', description: "Creates the account and e-mails its owner an invitation (accepting it verifies the account's e-mail)." })
  @ApiContract({ body: ProvisionDeveloperRequest, response: ProvisionedDeveloperResponse, status: 201, errors: ['validation_error', 'conflict', 'insufficient_role', 'csrf_token_invalid'] })
  async provision(@PortalSession() session: PortalSessionContext, @Body() body: ProvisionDeveloperRequest): Promise<ProvisionedDeveloperResponse> {
    const { developer, invitation } = await this.provisioning.provision(body, session.actor.userId);
    return { developer: toAdminDeveloper(developer, []), owner_invitation: toInvitation(invitation) };
  }

  @Get('developers/:id')
  @PortalAccess({ session: 'active', platform: 'platform:fees:read' })
  @ApiOperation({ summary: 'A developer account with its fee overrides' })
  @ApiContract({ response: AdminDeveloperResponse, errors: ['developer_not_found', 'insufficient_role'] })
  async get(@Param('id') id: string): Promise<AdminDeveloperResponse> {
    const developer = await this.developers.get(id);
    return toAdminDeveloper(developer, await this.fees(developer));
  }

  @Post('developers/:id/verify-identity')
  @HttpCode(200)
  @PortalAccess({ session: 'active', platform: 'platform:developers:manage' })
  @ApiOperation({ summary: 'Mark identity verification complete', description: 'Enables live mode for the account. Idempotent.' })
  @ApiContract({ response: AdminDeveloperResponse, errors: ['developer_not_found', 'insufficient_role', 'csrf_token_invalid'] })
  async verifyIdentity(@Param('id') id: string): Promise<AdminDeveloperResponse> {
    const developer = await this.developers.verifyIdentity(id);
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
  @ApiOperation({ summary: 'Set the platform fee override for one currency', description: 'A flat amount per successful transaction; 0 means no platform fee.' })
  @ApiContract({ body: SetFeeOverrideRequest, response: FeeOverrideResponse, errors: ['validation_error', 'invalid_currency', 'developer_not_found', 'insufficient_role', 'csrf_token_invalid'] })
  async setFee(@Param('id') id: string, @Param('currency') currency: string, @Body() body: SetFeeOverrideRequest): Promise<FeeOverrideResponse> {
    if (!isCurrency(currency)) throw new DomainError('invalid_currency', `Currency must be one of ${CURRENCIES.join(', ')}.`);
    const amount = parseRequestAmount(body.amount);
    await this.developers.setFeeOverride(id, currency, amount);
    return toFeeOverride(currency, amount);
  }

  private async fees(developer: Developer): Promise<Array<[Currency, Amount | null]>> {
    return Promise.all(CURRENCIES.map(async (currency): Promise<[Currency, Amount | null]> => [currency, await this.developers.feeOverride(developer.id, currency)]));
  }
}
