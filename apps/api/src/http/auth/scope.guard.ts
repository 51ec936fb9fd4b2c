import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { scopesGrant } from '@gateway/contracts';
import { DomainError } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import { routeAccess } from './route-access';

/**
 * Third guard: the route's mode (live-only routes refuse test keys) and its declared scope (or one
 * implying it). A key with no scopes has full access.
 */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const access = routeAccess(this.reflector, context);
    const principal = context.switchToHttp().getRequest<FastifyRequest>().principal;
    if (access?.kind !== 'api-key' || !principal) return true;
    if (access.liveOnly && principal.mode !== 'live') throw new DomainError('live_mode_required', 'This endpoint moves real money: use a live secret key.');
    if (scopesGrant(principal.scopes, access.scope)) return true;
    throw new DomainError('insufficient_scope', `This API key lacks the ${access.scope} scope.`);
  }
}
