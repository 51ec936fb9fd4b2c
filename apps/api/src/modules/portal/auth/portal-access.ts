import { applyDecorators, Controller, createParamDecorator, type ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiHeader, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DECORATORS } from '@nestjs/swagger/dist/constants';
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

/**
 * Declares a portal route's access (undeclared routes are refused), and documents the guard's 401
 * for a route that needs a session, unless the route's contract documents a 401 of its own
 * (written above `@ApiContract`, as on every portal route, this runs after it).
 */
export function PortalAccess(rule: PortalAccessRule): MethodDecorator {
  return (target, key, descriptor) => {
    SetMetadata(PORTAL_ACCESS, rule)(target, key, descriptor);
    if (rule.session === 'none') return;
    const documented = (Reflect.getMetadata(DECORATORS.API_RESPONSE, descriptor.value as object) ?? {}) as Record<string, unknown>;
    if (!('401' in documented)) ApiResponse({ status: 401, description: 'Error envelope with code `authentication_failed`: no valid portal session' })(target, key, descriptor);
  };
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
  return { developerId: session.actor.account.developerId, mode: session.mode, requestId: session.requestId };
}
