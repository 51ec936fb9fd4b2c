import { Body, Get, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  AcceptInvitationRequest,
  AcceptedResponse,
  CsrfTokenResponse,
  LoginRequest,
  LoginResponse,
  PasswordResetConfirmRequest,
  PasswordResetRequest,
  TokenRequest,
  TotpCodeRequest,
} from '@gateway/contracts';
import { AccountRecoveryService, csrfTokenForSession, SessionsService, TeamService, TotpService } from '@gateway/domain/identity';
import { APP_CONFIG, type AppConfig, randomToken } from '@gateway/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiContract } from '../../http/openapi.decorators';
import { NoStore } from '../../http/no-store.decorator';
import { PortalAuthRateLimit } from '../../http/throttling/portal-auth-rate-limit.decorator';
import { PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';
import { clearSessionCookie, setPreSessionCsrfCookie, setSessionCookie } from './auth/portal-cookies';
import { PasswordLoginGuard } from './auth/password-login.guard';
import { MePresenter } from './me.presenter';

/** Sign-in (password, then TOTP when enabled), sign-out, CSRF tokens and the e-mailed links. */
@PortalController('auth')
export class PortalAuthController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly totp: TotpService,
    private readonly recovery: AccountRecoveryService,
    private readonly team: TeamService,
    private readonly me: MePresenter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('csrf')
  @NoStore()
  @PortalAccess({ session: 'none' })
  @ApiOperation({
    summary: 'Get a CSRF token',
    description: "With a session: the session's token. Without one: a fresh token, also set in the `gw_csrf` cookie (double submit) for login, password reset and accepting invitations.",
  })
  @ApiContract({ response: CsrfTokenResponse })
  csrf(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): CsrfTokenResponse {
    if (request.portalSession) return { csrf_token: csrfTokenForSession(request.portalSession.token) };
    const token = randomToken(32);
    setPreSessionCsrfCookie(reply, request, this.config, token);
    return { csrf_token: token };
  }

  @Post('login')
  @HttpCode(200)
  @NoStore()
  @PortalAuthRateLimit()
  @PortalAccess({ session: 'none' })
  @UseGuards(PasswordLoginGuard)
  @ApiOperation({
    summary: 'Sign in with e-mail and password',
    description:
      'Sets the httpOnly `gw_session` cookie and returns the CSRF token of the new session. With TOTP enabled the session waits for the code (`stage: "totp_required"`, POST /auth/login/totp within 5 minutes). A wrong password and an unknown e-mail get the same 401; 5 failures for an address lock it for PORTAL_LOGIN_LOCKOUT_MINUTES (429 `too_many_attempts`). Credentials are read from the JSON body only. Each client IP may make RATE_LIMIT_PORTAL_AUTH_PER_MINUTE (10) attempts a minute across sign-in, password reset, TOTP and invitation routes (429 `rate_limit_exceeded` with Retry-After); 503 `service_unavailable` when too many passwords are being checked at once.',
  })
  @ApiContract({ body: LoginRequest, response: LoginResponse, errors: ['authentication_failed', 'too_many_attempts', 'rate_limit_exceeded', 'csrf_token_invalid', 'validation_error', 'service_unavailable'] })
  async login(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() _body: LoginRequest): Promise<LoginResponse> {
    const { userId } = request.passwordLogin as { userId: string };
    // A new sign-in never continues an older session on this browser.
    if (request.portalSession) await this.sessions.end(request.portalSession.id);
    const needsTotp = await this.totp.isEnabled(userId);
    const started = await this.sessions.start(userId, needsTotp ? 'pending_totp' : 'active', client(request));
    setSessionCookie(reply, request, this.config, started.token);
    const csrf = csrfTokenForSession(started.token);
    if (needsTotp) return { stage: 'totp_required', csrf_token: csrf };
    return { stage: 'active', csrf_token: csrf, user: await this.me.describe(started.token) };
  }

  @Post('login/totp')
  @HttpCode(200)
  @NoStore()
  @PortalAuthRateLimit()
  @PortalAccess({ session: 'pending' })
  @ApiOperation({
    summary: 'Second sign-in step: the TOTP code',
    description: 'Replaces the pending session by a full one under a new cookie and CSRF token. Codes are accepted ±1 step (30 s), never twice; 5 wrong codes lock TOTP for TOTP_LOCKOUT_MINUTES.',
  })
  @ApiContract({ body: TotpCodeRequest, response: LoginResponse, errors: ['authentication_failed', 'totp_invalid', 'too_many_attempts', 'rate_limit_exceeded', 'csrf_token_invalid'] })
  async loginTotp(
    @PortalSession() session: PortalSessionContext,
    @Body() body: TotpCodeRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LoginResponse> {
    await this.totp.verify(session.actor.userId, body.code);
    const promoted = await this.sessions.promote(session.id, client(request));
    setSessionCookie(reply, request, this.config, promoted.token);
    return { stage: 'active', csrf_token: csrfTokenForSession(promoted.token), user: await this.me.describe(promoted.token) };
  }

  @Post('logout')
  @HttpCode(204)
  @PortalAccess({ session: 'any' })
  @ApiOperation({ summary: 'Sign out', description: 'Deletes the session on the server and clears the cookie.' })
  @ApiContract({ status: 204, errors: ['csrf_token_invalid'] })
  async logout(@PortalSession() session: PortalSessionContext, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.sessions.end(session.id);
    clearSessionCookie(reply, request, this.config);
  }

  @Post('password-reset')
  @HttpCode(202)
  @PortalAuthRateLimit()
  @PortalAccess({ session: 'none' })
  @ApiOperation({ summary: 'Ask for a password-reset e-mail', description: 'Always 202, whether or not the address has an account. The link works once, for 1 hour.' })
  @ApiContract({ body: PasswordResetRequest, response: AcceptedResponse, status: 202, errors: ['csrf_token_invalid', 'validation_error', 'rate_limit_exceeded'] })
  async requestPasswordReset(@Body() body: PasswordResetRequest): Promise<AcceptedResponse> {
    await this.recovery.requestPasswordReset(body.email);
    return { accepted: true };
  }

  @Post('password-reset/confirm')
  @HttpCode(200)
  @PortalAuthRateLimit()
  @PortalAccess({ session: 'none' })
  @ApiOperation({ summary: 'Set a new password from the reset link', description: 'Signs the user out of every session.' })
  @ApiContract({ body: PasswordResetConfirmRequest, response: AcceptedResponse, errors: ['invalid_token', 'csrf_token_invalid', 'validation_error', 'rate_limit_exceeded', 'service_unavailable'] })
  async confirmPasswordReset(@Body() body: PasswordResetConfirmRequest): Promise<AcceptedResponse> {
    await this.recovery.confirmPasswordReset(body.token, body.password);
    return { accepted: true };
  }

  @Post('email-verification')
  @HttpCode(202)
  @PortalAccess({ session: 'active' })
  @ApiOperation({ summary: 'E-mail me a verification link', description: 'The link works once, for 24 hours.' })
  @ApiContract({ response: AcceptedResponse, status: 202, errors: ['authentication_failed', 'csrf_token_invalid'] })
  async requestEmailVerification(@PortalSession() session: PortalSessionContext): Promise<AcceptedResponse> {
    await this.recovery.requestEmailVerification(session.actor.userId);
    return { accepted: true };
  }

  @Post('email-verification/confirm')
  @HttpCode(200)
  @PortalAccess({ session: 'none' })
  @ApiOperation({ summary: 'Confirm an e-mail address from its link', description: "Verifying the account owner's address also verifies the developer account's e-mail (test mode)." })
  @ApiContract({ body: TokenRequest, response: AcceptedResponse, errors: ['invalid_token', 'csrf_token_invalid', 'validation_error'] })
  async confirmEmailVerification(@Body() body: TokenRequest): Promise<AcceptedResponse> {
    await this.recovery.confirmEmailVerification(body.token);
    return { accepted: true };
  }

  @Post('invitations/accept')
  @HttpCode(201)
  @PortalAuthRateLimit()
  @PortalAccess({ session: 'none' })
  @ApiOperation({ summary: 'Accept a team invitation', description: 'Creates the user with the chosen name and password (at least 12 characters); then sign in.' })
  @ApiContract({ body: AcceptInvitationRequest, response: AcceptedResponse, status: 201, errors: ['invalid_token', 'conflict', 'csrf_token_invalid', 'validation_error', 'rate_limit_exceeded', 'service_unavailable'] })
  async acceptInvitation(@Body() body: AcceptInvitationRequest): Promise<AcceptedResponse> {
    await this.team.acceptInvitation(body.token, body.name, body.password);
    return { accepted: true };
  }
}

function client(request: FastifyRequest): { ip: string; userAgent?: string } {
  return { ip: request.clientIp ?? request.ip, userAgent: request.headers['user-agent'] };
}
