import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { API_KEY_BUCKET } from './rate-limit-buckets';
import { type RateLimitSnapshot, stricterOf } from './rate-limit-headers';
import { RateLimitGuard } from './rate-limit.guard';

/**
 * Per API key, with the limit of the key's mode. Runs after the API key guard (it needs
 * `request.principal`); routes without a key are left to the IP bucket.
 */
@Injectable()
export class ApiKeyRateLimitGuard extends RateLimitGuard {
  protected readonly bucket = API_KEY_BUCKET;

  protected shown(request: FastifyRequest, own: RateLimitSnapshot): RateLimitSnapshot {
    return stricterOf(own, request.ipRateLimit);
  }

  protected refusalMessage(request: FastifyRequest, limit: number): string {
    const mode = request.principal?.mode ?? 'test';
    return `Too many requests with this API key: at most ${limit} per second in ${mode} mode.`;
  }
}
