import { Body, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AddIpAllowlistEntryRequest, IpAllowlistEntryResponse } from '@gateway/contracts';
import { IpAllowlistService } from '@gateway/domain/api-keys';
import type { FastifyRequest } from 'fastify';
import { ApiContract } from '../../http/openapi.decorators';
import { accountContext, PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';
import { portalAuditActor } from './auth/portal-audit-actor';
import { toIpAllowlistEntry } from './portal.mapper';

/** The account's IP allowlist (both modes): empty = any address; entries may apply to one key. */
@PortalController('ip-allowlist')
export class PortalIpAllowlistController {
  constructor(private readonly allowlist: IpAllowlistService) {}

  @Get()
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'List allowlist entries' })
  @ApiContract({ response: [IpAllowlistEntryResponse], errors: ['authentication_failed', 'insufficient_role'] })
  async list(@PortalSession() session: PortalSessionContext): Promise<IpAllowlistEntryResponse[]> {
    return (await this.allowlist.list(accountContext(session).developerId)).map(toIpAllowlistEntry);
  }

  @Post()
  @HttpCode(201)
  @PortalAccess({ session: 'active', permission: 'keys:manage' })
  @ApiOperation({ summary: 'Add an address or range', description: 'IPv4, IPv6 or CIDR; optionally only for one key (`api_key_id`). Stored in canonical form.' })
  @ApiContract({ body: AddIpAllowlistEntryRequest, response: IpAllowlistEntryResponse, status: 201, errors: ['validation_error', 'api_key_not_found', 'conflict', 'insufficient_role', 'csrf_token_invalid'] })
  async add(@PortalSession() session: PortalSessionContext, @Body() body: AddIpAllowlistEntryRequest, @Req() request: FastifyRequest): Promise<IpAllowlistEntryResponse> {
    return toIpAllowlistEntry(await this.allowlist.add(accountContext(session).developerId, body.cidr, body.api_key_id, body.label, portalAuditActor(session, request)));
  }

  @Delete(':id')
  @HttpCode(204)
  @PortalAccess({ session: 'active', permission: 'keys:manage' })
  @ApiOperation({ summary: 'Remove an entry' })
  @ApiContract({ status: 204, errors: ['not_found', 'insufficient_role', 'csrf_token_invalid'] })
  async remove(@PortalSession() session: PortalSessionContext, @Param('id') id: string, @Req() request: FastifyRequest): Promise<void> {
    await this.allowlist.remove(accountContext(session).developerId, id, portalAuditActor(session, request));
  }
}
