import { applyDecorators, Controller, createParamDecorator, type ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiHeader, ApiTags } from '@nestjs/swagger';
import { PORTAL_SESSION_COOKIE } from '@gateway/contracts';
import { type DeveloperContext, DomainError } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import { Public } from '../../../http/auth/authenticated.decorator';
import { PORTAL_ACCESS, type PortalAccessRule, type PortalSessionContext } from './portal-access-rule';
import { PortalGuard } from './portal.guard';

export type { PortalAccessRule, PortalSessionContext };

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
