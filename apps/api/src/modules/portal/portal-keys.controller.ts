import { Body, Delete, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  CreatePortalKeyRequest,
  IssuedPortalKeyResponse,
  PortalKeyResponse,
  RotatePortalKeyRequest,
  RotatedPortalKeyResponse,
  SetKeyScopesRequest,
} from '@gateway/contracts';
import { ApiKeysService } from '@gateway/domain/api-keys';
import { Clock } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import { ApiContract } from '../../http/openapi.decorators';
import { NoStore } from '../../http/no-store.decorator';
import { accountContext, PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';
import { portalAuditActor } from './auth/portal-audit-actor';
import { IN_LIVE_MODE, RequireTotp } from './auth/require-totp';
import { toPortalKey } from './portal.mapper';

const HOUR_MS = 3_600_000;

/**
 * The account's API keys in the session's mode. Secrets are shown once, at generation or
 * rotation; lists show hints and last use only. In live mode, issuing and rotating need a TOTP code.
 */
@PortalController('keys')
export class PortalKeysController {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly clock: Clock,
  ) {}

  @Get()
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'List keys (this mode)', description: 'Newest first, with status and last use (recorded within about 10 seconds). Never the key itself.' })
  @ApiContract({ response: [PortalKeyResponse], errors: ['authentication_failed', 'insufficient_role'] })
  async list(@PortalSession() session: PortalSessionContext): Promise<PortalKeyResponse[]> {
    const ctx = accountContext(session);
    const now = this.clock.now();
    return (await this.keys.list(ctx.developerId, ctx.mode)).map((key) => toPortalKey(key, now));
  }

  @Post()
  @HttpCode(201)
  @NoStore()
  @PortalAccess({ session: 'active', permission: 'keys:manage' })
  @RequireTotp(IN_LIVE_MODE)
  @ApiOperation({ summary: 'Generate a key', description: 'Secret (default) or publishable, in the session mode; the key is in `secret`, shown only in this response. Live mode: X-TOTP-Code required.' })
  @ApiContract({ body: CreatePortalKeyRequest, response: IssuedPortalKeyResponse, status: 201, errors: ['validation_error', 'insufficient_role', 'totp_required', 'totp_invalid', 'csrf_token_invalid'] })
  async create(@PortalSession() session: PortalSessionContext, @Body() body: CreatePortalKeyRequest, @Req() request: FastifyRequest): Promise<IssuedPortalKeyResponse> {
    const ctx = accountContext(session);
    const issued = await this.keys.issue({ ...ctx, kind: body.kind ?? 'secret', name: body.name, scopes: body.scopes }, portalAuditActor(session, request));
    return { key: toPortalKey(issued.key, this.clock.now()), secret: issued.secret };
  }

  @Post(':id/rotate')
  @HttpCode(201)
  @NoStore()
  @PortalAccess({ session: 'active', permission: 'keys:manage' })
  @RequireTotp(IN_LIVE_MODE)
  @ApiOperation({
    summary: 'Rotate a key',
    description: 'Issues a successor with the same kind, name and scopes (its key in `secret`, shown once). The old key stops at once, or after `overlap_hours` (up to 168) so deployments can switch. Live mode: X-TOTP-Code required.',
  })
  @ApiContract({ body: RotatePortalKeyRequest, response: RotatedPortalKeyResponse, status: 201, errors: ['api_key_not_found', 'invalid_state', 'insufficient_role', 'totp_required', 'totp_invalid', 'csrf_token_invalid', 'validation_error'] })
  async rotate(@PortalSession() session: PortalSessionContext, @Param('id') id: string, @Body() body: RotatePortalKeyRequest, @Req() request: FastifyRequest): Promise<RotatedPortalKeyResponse> {
    const rotated = await this.keys.rotate(accountContext(session), id, (body.overlap_hours ?? 0) * HOUR_MS, portalAuditActor(session, request));
    const now = this.clock.now();
    return { key: toPortalKey(rotated.key, now), secret: rotated.secret, previous: toPortalKey(rotated.previous, now) };
  }

  @Put(':id/scopes')
  @PortalAccess({ session: 'active', permission: 'keys:manage' })
  @ApiOperation({ summary: "Replace a key's scopes", description: 'An empty list grants full access. Applies to the next request on every API instance.' })
  @ApiContract({ body: SetKeyScopesRequest, response: PortalKeyResponse, errors: ['api_key_not_found', 'invalid_state', 'validation_error', 'insufficient_role', 'csrf_token_invalid'] })
  async setScopes(@PortalSession() session: PortalSessionContext, @Param('id') id: string, @Body() body: SetKeyScopesRequest): Promise<PortalKeyResponse> {
    return toPortalKey(await this.keys.setScopes(accountContext(session), id, body.scopes), this.clock.now());
  }

  @Delete(':id')
  @PortalAccess({ session: 'active', permission: 'keys:manage' })
  @ApiOperation({ summary: 'Revoke a key', description: 'Takes effect at once. Revoking twice is harmless.' })
  @ApiContract({ response: PortalKeyResponse, errors: ['api_key_not_found', 'insufficient_role', 'csrf_token_invalid'] })
  async revoke(@PortalSession() session: PortalSessionContext, @Param('id') id: string, @Req() request: FastifyRequest): Promise<PortalKeyResponse> {
    const ctx = accountContext(session);
    const key = await this.keys.get(ctx, id);
    return toPortalKey(await this.keys.revoke(ctx.developerId, key.id, portalAuditActor(session, request)), this.clock.now());
  }
}
