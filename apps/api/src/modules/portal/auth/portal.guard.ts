import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PORTAL_CSRF_COOKIE, PORTAL_CSRF_HEADER, PORTAL_SESSION_COOKIE } from '@gateway/contracts';
import { DevelopersService } from '@gateway/domain/developers';
import { accountRoleAllows, csrfTokenForSession, platformRoleAllows, SessionsService } from '@gateway/domain/identity';
import { constantTimeEqual, DomainError } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import { PORTAL_ACCESS, type PortalAccessRule } from './portal-access-rule';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The portal's guard, in this order: the session cookie (401 `authentication_failed`), the CSRF
 * token on every state-changing request (403 `csrf_token_invalid`), the role (403
 * `insufficient_role`), then, on account routes, the account's suspension (403 `account_suspended`).
 *
 * CSRF: with a session, the expected token is an HMAC of the session token (only the holder of
 * the httpOnly cookie can know it; the portal gets it at login or from GET /auth/csrf). Without
 * a session (login, password reset, accepting an invitation) it is the classic double submit:
 * the header must equal the `gw_csrf` cookie set by GET /auth/csrf. Either way a cross-site form
 * or fetch cannot supply the header, and SameSite=Lax cookies back this up.
 */
@Injectable()
export class PortalGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionsService,
    private readonly developers: DevelopersService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.get<PortalAccessRule | undefined>(PORTAL_ACCESS, context.getHandler());
    if (!rule) throw new DomainError('authentication_failed', 'This portal route is not available.');
    const request = context.switchToHttp().getRequest<FastifyRequest>();

    const token = request.cookies?.[PORTAL_SESSION_COOKIE];
    const session = token ? await this.sessions.resolve(token) : null;
    if (session && token) request.portalSession = { ...session, token, requestId: request.id };

    const stageOk =
      rule.session === 'none' ||
      (rule.session === 'any' && session) ||
      (rule.session === 'pending' && session?.stage === 'pending_totp') ||
      (rule.session === 'active' && session?.stage === 'active');
    if (!stageOk) {
      throw new DomainError(
        'authentication_failed',
        rule.session === 'pending' ? 'No sign-in is waiting for a TOTP code: sign in again.' : 'Sign in to the portal first.',
      );
    }

    if (!SAFE_METHODS.has(request.method)) this.checkCsrf(request, token && session ? token : undefined);

    if (rule.session === 'active' && session) {
      const { actor } = session;
      if (rule.permission && !(actor.account && accountRoleAllows(actor.account.role, rule.permission))) {
        throw new DomainError('insufficient_role', actor.account ? `Your role (${actor.account.role}) does not allow this.` : 'This needs a developer account.');
      }
      // Account routes of a suspended account are refused; /me and the staff pages are not.
      if (rule.permission && actor.account && (await this.developers.get(actor.account.developerId)).suspendedAt) {
        throw new DomainError('account_suspended', 'This account is suspended: contact the platform operator.');
      }
      if (rule.platform && !(actor.platformRole && platformRoleAllows(actor.platformRole, rule.platform))) {
        throw new DomainError('insufficient_role', 'This is for platform administrators.');
      }
    }
    return true;
  }

  private checkCsrf(request: FastifyRequest, sessionToken: string | undefined): void {
    const header = request.headers[PORTAL_CSRF_HEADER];
    const presented = typeof header === 'string' ? header : '';
    const expected = sessionToken ? csrfTokenForSession(sessionToken) : (request.cookies?.[PORTAL_CSRF_COOKIE] ?? '');
    if (!presented || !expected || !constantTimeEqual(presented, expected)) {
      throw new DomainError('csrf_token_invalid', 'Missing or wrong X-CSRF-Token header: get a token from GET /api/portal/auth/csrf.');
    }
  }
}
