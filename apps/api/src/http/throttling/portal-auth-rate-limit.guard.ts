import { Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { RouteMetadata } from '../route-metadata';
import type { RateLimitBucket } from './rate-limit-buckets';
import { type RateLimitSnapshot, stricterOf } from './rate-limit-headers';
import { RATE_LIMIT_BUCKETS, RateLimitGuard } from './rate-limit.guard';
import { RateLimitStorage } from './rate-limit.storage';

/**
 * Per client IP and minute, on the routes marked `@PortalAuthRateLimit()` only. Runs right after
 * the IP guard and before the portal's own guards, so a flood is refused before any session
 * lookup, CSRF check or password hash; it counts with the same storage (memory or Redis).
 */
@Injectable()
export class PortalAuthRateLimitGuard extends RateLimitGuard {
  constructor(reflector: Reflector, storage: RateLimitStorage, @Inject(RATE_LIMIT_BUCKETS) [, , portalAuth]: RateLimitBucket[]) {
    super(reflector, storage, portalAuth);
  }

  protected override appliesTo(route: RouteMetadata): boolean {
    return route.portalAuthRateLimit;
  }

  protected shown(request: FastifyRequest, own: RateLimitSnapshot): RateLimitSnapshot {
    return stricterOf(own, request.ipRateLimit);
  }

  protected refusalMessage(_request: FastifyRequest, limit: number): string {
    return `Too many sign-in, password-reset, TOTP or invitation attempts from this IP address: at most ${limit} per minute.`;
  }
}
