import { Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { RateLimitBucket } from './rate-limit-buckets';
import type { RateLimitSnapshot } from './rate-limit-headers';
import { RATE_LIMIT_BUCKETS, RateLimitGuard } from './rate-limit.guard';
import { RateLimitStorage } from './rate-limit.storage';

/**
 * Per client IP, for every request that reaches a route (health probes excepted). Runs before the
 * API key guard, so unauthenticated requests (key guessing) are counted and refused too.
 */
@Injectable()
export class IpRateLimitGuard extends RateLimitGuard {
  constructor(reflector: Reflector, storage: RateLimitStorage, @Inject(RATE_LIMIT_BUCKETS) [ip]: RateLimitBucket[]) {
    super(reflector, storage, ip);
  }

  protected shown(request: FastifyRequest, own: RateLimitSnapshot): RateLimitSnapshot {
    request.ipRateLimit = own;
    return own;
  }

  protected refusalMessage(_request: FastifyRequest, limit: number): string {
    return `Too many requests from this IP address: at most ${limit} per second.`;
  }
}
