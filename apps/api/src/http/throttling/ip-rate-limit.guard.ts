import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { IP_BUCKET } from './rate-limit-buckets';
import type { RateLimitSnapshot } from './rate-limit-headers';
import { RateLimitGuard } from './rate-limit.guard';

/**
 * Per client IP, for every request that reaches a route (health probes excepted). Runs before the
 * API key guard, so unauthenticated requests (key guessing) are counted and refused too.
 */
@Injectable()
export class IpRateLimitGuard extends RateLimitGuard {
  protected readonly bucket = IP_BUCKET;

  protected shown(request: FastifyRequest, own: RateLimitSnapshot): RateLimitSnapshot {
    request.ipRateLimit = own;
    return own;
  }

  protected refusalMessage(_request: FastifyRequest, limit: number): string {
    return `Too many requests from this IP address: at most ${limit} per second.`;
  }
}
