import { applyDecorators, Controller, createParamDecorator, type ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiHeader, ApiTags } from '@nestjs/swagger';
import { PORTAL_SESSION_COOKIE } from '@gateway/contracts';
import type { AccountPermission, PlatformPermission, ResolvedSession } from '@gateway/domain/identity';
import { type DeveloperContext, DomainError } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import { Public } from '../../../http/auth/authenticated.decorator';
import { PortalGuard } from './portal.guard';

export const PORTAL_ACCESS = 'gateway:portal-access';

/**
 * What a portal route needs. `none`: no session (login, password reset…); `pending`: a session
 * whose password step passed and which owes its TOTP code; `any`: pending or active (logout);
 * `active`: a signed-in session, optionally with an account or platform permission.
 */
export type PortalAccessRule =
  | { session: 'none' | 'pending' | 'any' }
  | { session: 'active'; permission?: AccountPermission; platform?: PlatformPermission };

/** The request's portal session and the cookie value it came from (for the CSRF token). */
export interface PortalSessionContext extends ResolvedSession {
  token: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the portal guard when a valid session cookie came with the request. */
    portalSession?: PortalSessionContext;
  }
}

/**
 * A portal controller under `/api/portal/<path>`: outside the merchant API key chain (marked
 * public for it) and behind the portal's own session, CSRF and role guard instead.
 */
export function PortalController(path: string): ClassDecorator {
  return applyDecorators(
    Controller(`api/portal/${path}`),
    Public(),
    UseGuards(PortalGuard),
    ApiTags('Portal'),
    ApiCookieAuth(PORTAL_SESSION_COOKIE),
    ApiHeader({
      name: 'X-CSRF-Token',
      required: false,
      description: 'Required on every POST, PUT, PATCH and DELETE: the token from login or GET /api/portal/auth/csrf. Missing or wrong: 403 `csrf_token_invalid`.',
    }),
  );
}

/** Declares a portal route's access (undeclared routes are refused). */
export function PortalAccess(rule: PortalAccessRule): MethodDecorator {
  return SetMetadata(PORTAL_ACCESS, rule);
}

/** The signed-in session (routes whose rule requires one). */
export const PortalSession = createParamDecorator((_: unknown, ctx: ExecutionContext): PortalSessionContext => {
  const session = ctx.switchToHttp().getRequest<FastifyRequest>().portalSession;
  if (!session) throw new Error('PortalSession used on a route that does not require a session');
  return session;
});

/** The account and mode a signed-in member works in (tenant of every account route). */
export function accountContext(session: PortalSessionContext): DeveloperContext {
  if (!session.actor.account) throw new DomainError('insufficient_role', 'This needs a developer account.');
  return { developerId: session.actor.account.developerId, mode: session.mode };
}
