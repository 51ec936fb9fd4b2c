import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { ROUTE_ACCESS, type RouteAccess } from './authenticated.decorator';

/** The access a route declared (method first, then controller); undefined = undeclared → denied. */
export function routeAccess(reflector: Reflector, context: ExecutionContext): RouteAccess | undefined {
  return reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, [context.getHandler(), context.getClass()]);
}
