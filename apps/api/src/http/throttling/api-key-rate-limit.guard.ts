import { Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { RateLimitBucket } from './rate-limit-buckets';
import { type RateLimitSnapshot, stricterOf } from './rate-limit-headers';
import { RATE_LIMIT_BUCKETS, RateLimitGuard } from './rate-limit.guard';
import { RateLimitStorage } from './rate-limit.storage';

/**
 * Per API key, with the limit of the key's mode. Runs after the API key guard (it needs
 * `request.principal`); routes without a key are left to the IP bucket.
 */
@Injectable()
export class ApiKeyRateLimitGuard extends RateLimitGuard {
  constructor(reflector: Reflector, storage: RateLimitStorage, @Inject(RATE_LIMIT_BUCKETS) [, apiKey]: RateLimitBucket[]) {
    super(reflector, storage, apiKey);
  }

  protected shown(request: FastifyRequest, own: RateLimitSnapshot): RateLimitSnapshot {
    return stricterOf(own, request.ipRateLimit);
  }

  protected refusalMessage(request: FastifyRequest, limit: number): string {
    const mode = request.principal?.mode ?? 'test';
    return `Too many requests with this API key: at most ${limit} per second in ${mode} mode.`;
  }
}
