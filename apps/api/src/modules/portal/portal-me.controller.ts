import { Body, Get, HttpCode, Post, Put, Req } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { MeResponse, ModeResponse, SetModeRequest, TotpCodeRequest, TotpEnrollResponse, TotpStatusResponse } from '@gateway/contracts';
import { DevelopersService } from '@gateway/domain/developers';
import { SessionsService, TotpService } from '@gateway/domain/identity';
import { DomainError } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import { ApiContract } from '../../http/openapi.decorators';
import { NoStore } from '../../http/no-store.decorator';
import { PortalAuthRateLimit } from '../../http/throttling/portal-auth-rate-limit.decorator';
import { accountContext, PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';
import { portalAuditActor } from './auth/portal-audit-actor';
import { RequireTotp, SWITCHING_TO_LIVE } from './auth/require-totp';
import { MePresenter } from './me.presenter';

/** The signed-in person: profile, TOTP enrolment, and the mode (test/live) the portal shows. */
@PortalController('me')
export class PortalMeController {
  constructor(
    private readonly presenter: MePresenter,
    private readonly totp: TotpService,
    private readonly sessions: SessionsService,
    private readonly developers: DevelopersService,
  ) {}

  @Get()
  @PortalAccess({ session: 'active' })
  @ApiOperation({ summary: 'Who am I', description: 'User, account and role, TOTP status, and the session (mode, expiries).' })
  @ApiContract({ response: MeResponse, errors: ['authentication_failed'] })
  get(@PortalSession() session: PortalSessionContext): Promise<MeResponse> {
    return this.presenter.present(session);
  }

  @Post('totp/enroll')
  @HttpCode(200)
  @NoStore()
  @PortalAccess({ session: 'active' })
  @ApiOperation({
    summary: 'Start TOTP enrolment',
    description: 'Returns the secret and otpauth:// URL (for a QR code) once; nothing is active until POST /me/totp/confirm accepts a code. Enrolling again before confirming replaces the secret.',
  })
  @ApiContract({ response: TotpEnrollResponse, errors: ['conflict', 'authentication_failed', 'csrf_token_invalid'] })
  async enroll(@PortalSession() session: PortalSessionContext): Promise<TotpEnrollResponse> {
    const { secret, otpauthUrl } = await this.totp.enroll(session.actor.userId, session.actor.email);
    return { secret, otpauth_url: otpauthUrl };
  }

  @Post('totp/confirm')
  @HttpCode(200)
  @PortalAuthRateLimit()
  @PortalAccess({ session: 'active' })
  @ApiOperation({ summary: 'Activate TOTP with a first code', description: 'From then on sign-in asks for a code, and so do the sensitive actions.' })
  @ApiContract({ body: TotpCodeRequest, response: TotpStatusResponse, errors: ['totp_required', 'totp_invalid', 'too_many_attempts', 'rate_limit_exceeded', 'conflict', 'csrf_token_invalid'] })
  async confirm(@PortalSession() session: PortalSessionContext, @Body() body: TotpCodeRequest, @Req() request: FastifyRequest): Promise<TotpStatusResponse> {
    await this.totp.confirm(session.actor.userId, body.code, { actor: portalAuditActor(session, request), developerId: session.actor.account?.developerId ?? null });
    return { totp_enabled: true };
  }

  @Put('mode')
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @RequireTotp(SWITCHING_TO_LIVE)
  @ApiOperation({
    summary: 'Switch the portal between test and live mode',
    description:
      'Live mode needs completed identity verification of the account (403 `live_mode_not_enabled`) and a TOTP code in X-TOTP-Code. Keys, logs and the rest of the portal then act in live mode for this session.',
  })
  @ApiContract({ body: SetModeRequest, response: ModeResponse, errors: ['live_mode_not_enabled', 'totp_required', 'totp_invalid', 'too_many_attempts', 'insufficient_role', 'csrf_token_invalid'] })
  async setMode(@PortalSession() session: PortalSessionContext, @Body() body: SetModeRequest): Promise<ModeResponse> {
    if (body.mode === 'live') {
      const developer = await this.developers.get(accountContext(session).developerId);
      if (!developer.identityVerifiedAt) {
        throw new DomainError('live_mode_not_enabled', 'Live mode is enabled once identity verification is complete.');
      }
    }
    await this.sessions.setMode(session.id, body.mode);
    return { mode: body.mode };
  }
}
