import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { Reflector } from '@nestjs/core';
import { APP_CONFIG, type AppConfig, DomainError } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import { type DtoClass, oversizedArrays } from './array-limits';
import { BODY_ARRAY_LIMITS, type BodyArrayLimits } from './body-array-limit.decorator';

/**
 * Last of the global guards, for API-key routes: a body array over its limit is refused here,
 * before the idempotency guard fingerprints the whole body and before validation visits
 * every item. Requests without an API key (portal, public routes) are left to the validation
 * pipe, which runs the same check after their own guards, so nothing is judged before it is
 * authenticated.
 */
@Injectable()
export class BodyArrayLimitsGuard implements CanActivate {
  private readonly routes = new WeakMap<object, RouteBody | null>();

  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!request.principal || request.body === null || typeof request.body !== 'object') return true;
    const route = this.routeBody(context);
    if (!route) return true;
    const errors = oversizedArrays(route.dto, request.body, route.overrides);
    if (Object.keys(errors).length) throw new DomainError('validation_error', 'The request is invalid.', errors);
    return true;
  }

  /** The route's body DTO and configured limits: read once per route (decorators never change). */
  private routeBody(context: ExecutionContext): RouteBody | null {
    const handler = context.getHandler();
    if (this.routes.has(handler)) return this.routes.get(handler) ?? null;
    const dto = bodyDtoOf(context.getClass(), handler.name);
    const limits = this.reflector.get<BodyArrayLimits | undefined>(BODY_ARRAY_LIMITS, handler) ?? {};
    const overrides = Object.fromEntries(Object.entries(limits).map(([property, limitOf]) => [property, limitOf(this.config)]));
    const route = dto ? { dto, overrides } : null;
    this.routes.set(handler, route);
    return route;
  }
}

interface RouteBody {
  dto: DtoClass;
  overrides: Record<string, number>;
}

/** The class of the handler's whole-body `@Body()` parameter, as Nest's own pipes receive it. */
function bodyDtoOf(controller: DtoClass, method: string): DtoClass | undefined {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<string, { index: number; data?: unknown }>;
  const body = Object.entries(args).find(([key, arg]) => key.split(':')[0] === String(RouteParamtypes.BODY) && arg.data === undefined)?.[1];
  if (!body) return undefined;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype as object, method) ?? []) as unknown[];
  const type = types[body.index];
  return typeof type === 'function' && type !== Object ? type : undefined;
}
