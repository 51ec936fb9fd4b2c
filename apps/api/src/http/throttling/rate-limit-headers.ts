import type { FastifyReply } from 'fastify';
import type { RateLimitBucketName } from './rate-limit-buckets';

/** Where one bucket stands after counting the current request. */
export interface RateLimitSnapshot {
  bucket: RateLimitBucketName;
  limit: number;
  remaining: number;
  /** Whole seconds until the bucket admits requests again (≥ 1). */
  resetSeconds: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The IP bucket's state, left by the IP rate-limit guard for the key guard to compare with. */
    ipRateLimit?: RateLimitSnapshot;
  }
}

/**
 * The bucket the client should pace itself by: the one with fewer requests left, and on a tie
 * the one that stays closed longer.
 */
export function stricterOf(first: RateLimitSnapshot, second: RateLimitSnapshot | undefined): RateLimitSnapshot {
  if (!second) return first;
  if (first.remaining !== second.remaining) return first.remaining < second.remaining ? first : second;
  return second.resetSeconds > first.resetSeconds ? second : first;
}

export function writeRateLimitHeaders(reply: FastifyReply, snapshot: RateLimitSnapshot): void {
  reply.header('X-RateLimit-Limit', snapshot.limit);
  reply.header('X-RateLimit-Remaining', snapshot.remaining);
  reply.header('X-RateLimit-Reset', snapshot.resetSeconds);
}
