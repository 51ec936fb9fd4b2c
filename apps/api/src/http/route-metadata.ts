import type { ExecutionContext } from '@nestjs/common';
import { HEADERS_METADATA } from '@nestjs/common/constants';
import type { Reflector } from '@nestjs/core';
import { ROUTE_ACCESS, type RouteAccess } from './auth/authenticated.decorator';
import { IDEMPOTENCY_BODY_KEY } from './idempotency/idempotency-body-key.decorator';
import { PORTAL_AUTH_RATE_LIMIT } from './throttling/portal-auth-rate-limit.decorator';
import { SKIP_RATE_LIMIT } from './throttling/skip-rate-limit.decorator';

/** What the guards and interceptors need to know about a route, from its decorators. */
export interface RouteMetadata {
  /** The declared access (method first, then controller); undefined = undeclared → denied. */
  access: RouteAccess | undefined;
  /** `@SkipRateLimit()` on the method or the controller. */
  skipRateLimit: boolean;
  /** The body field that may carry the idempotency key (`@IdempotencyBodyKey`), if any. */
  idempotencyBodyField: string | undefined;
  /** `@PortalAuthRateLimit()`: the route also counts against the per-minute credential-route limit. */
  portalAuthRateLimit: boolean;
  /** The headers the route sets on every answer with Nest's `@Header()` (e.g. `@NoStore()`). */
  responseHeaders: RouteResponseHeader[];
}

/** One `@Header(name, value)` of a route, as Nest stores it. */
export interface RouteResponseHeader {
  name: string;
  value: string | (() => string);
}

/** Decorator metadata never changes once the app runs: read it once per route, not per request. */
const byController = new WeakMap<object, WeakMap<object, RouteMetadata>>();

export function routeMetadata(reflector: Reflector, context: ExecutionContext): RouteMetadata {
  const controller = context.getClass();
  const handler = context.getHandler();
  let routes = byController.get(controller);
  if (!routes) {
    routes = new WeakMap();
    byController.set(controller, routes);
  }
  let metadata = routes.get(handler);
  if (!metadata) {
    const targets = [handler, controller];
    metadata = {
      access: reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, targets),
      skipRateLimit: reflector.getAllAndOverride<boolean | undefined>(SKIP_RATE_LIMIT, targets) === true,
      idempotencyBodyField: reflector.getAllAndOverride<string | undefined>(IDEMPOTENCY_BODY_KEY, targets),
      portalAuthRateLimit: reflector.getAllAndOverride<boolean | undefined>(PORTAL_AUTH_RATE_LIMIT, targets) === true,
      responseHeaders: reflector.get<RouteResponseHeader[] | undefined>(HEADERS_METADATA, handler) ?? [],
    };
    routes.set(handler, metadata);
  }
  return metadata;
}
