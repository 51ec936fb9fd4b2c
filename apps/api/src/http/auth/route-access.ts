import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { routeMetadata } from '../route-metadata';
import type { RouteAccess } from './authenticated.decorator';

/** The access a route declared (method first, then controller); undefined = undeclared → denied. */
export function routeAccess(reflector: Reflector, context: ExecutionContext): RouteAccess | undefined {
  return routeMetadata(reflector, context).access;
}
