import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Scope } from '@gateway/contracts';
import type { DeveloperContext } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import { developerContext, type ApiKeyPrincipal } from './principal';

export const ROUTE_ACCESS = 'gateway:route-access';

export type RouteAccess =
  | { kind: 'public' }
  | { kind: 'api-key'; scope: Scope; keyKinds: Array<'secret' | 'publishable'>; liveOnly?: boolean; requireTotp?: boolean };

/**
 * Every merchant route declares its access once. Routes without a declaration are refused by the
 * global guard (default deny). `liveOnly` routes (transfers: they move real money) refuse a test
 * key with 403 `live_mode_required`, before the scope is looked at.
 */
export function Authenticated(options: { scope: Scope; allowPublishable?: boolean; liveOnly?: boolean }): MethodDecorator & ClassDecorator {
  const access: RouteAccess = {
    kind: 'api-key',
    scope: options.scope,
    keyKinds: options.allowPublishable ? ['secret', 'publishable'] : ['secret'],
    ...(options.liveOnly ? { liveOnly: true } : {}),
  };
  const refusals = [`\`insufficient_scope\` (needs \`${options.scope}\`)`, '`ip_not_allowed`', '`live_mode_not_enabled`', ...(options.liveOnly ? ['`live_mode_required` (a test key)'] : [])];
  return applyDecorators(
    SetMetadata(ROUTE_ACCESS, access),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ description: '`authentication_failed`: missing, malformed, unknown, revoked or expired key' }),
    ApiForbiddenResponse({ description: refusals.join(', ') }),
  );
}

/** Explicitly public (health, docs, provider webhooks, portal login…). */
export function Public(): MethodDecorator & ClassDecorator {
  return SetMetadata(ROUTE_ACCESS, { kind: 'public' } satisfies RouteAccess);
}

/** The caller's tenant: `{developerId, mode}` from the API key, and the request's id. */
export const Tenant = createParamDecorator((_: unknown, ctx: ExecutionContext): DeveloperContext => {
  const request = ctx.switchToHttp().getRequest<FastifyRequest>();
  return developerContext(request.principal as ApiKeyPrincipal, request.id);
});
