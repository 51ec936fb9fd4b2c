import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type RouteMetadata, routeMetadata } from '../route-metadata';
import type { CounterRecord } from './fallback-storage';
import type { RateLimitBucket } from './rate-limit-buckets';
import { RateLimitExceededError } from './rate-limit-exceeded.error';
import { type RateLimitSnapshot, writeRateLimitHeaders } from './rate-limit-headers';
import type { RateLimitStorage } from './rate-limit.storage';

/** The rate-limit buckets, as configured (see rateLimitThrottlers). */
export const RATE_LIMIT_BUCKETS = Symbol('RATE_LIMIT_BUCKETS');

/**
 * One bucket of the rate limit, as a guard. The limit is split in two guards because the buckets
 * count at different points of the guard chain: the IP bucket before the API key is checked (so
 * key guessing is throttled), the key bucket once the key is known.
 *
 * The answer is ours: the `X-RateLimit-*` headers show the stricter bucket, and an excess becomes
 * the envelope's `rate_limit_exceeded` with `retry_after` and a `Retry-After` header. Counting in
 * memory is synchronous, so with the memory store the guard costs no promise at all.
 */
export abstract class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly storage: RateLimitStorage,
    private readonly bucket: RateLimitBucket,
  ) {}

  /** What the headers show, given this bucket's state after counting the request. */
  protected abstract shown(request: FastifyRequest, own: RateLimitSnapshot): RateLimitSnapshot;

  protected abstract refusalMessage(request: FastifyRequest, limit: number): string;

  /** Whether this bucket counts requests to the route at all (every route unless overridden). */
  protected appliesTo(_route: RouteMetadata): boolean {
    return true;
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const route = routeMetadata(this.reflector, context);
    if (route.skipRateLimit || !this.appliesTo(route)) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const bucket = this.bucket;
    if (bucket.skipIf?.(request)) return true;
    const limit = bucket.limit(request);
    const key = bucket.generateKey(context, bucket.getTracker(request), bucket.name);
    const counted = this.storage.increment(key, bucket.ttl, limit, bucket.ttl, bucket.name);
    const reply = http.getResponse<FastifyReply>();
    return counted instanceof Promise
      ? counted.then((record) => this.decide(request, reply, limit, record))
      : this.decide(request, reply, limit, counted);
  }

  private decide(request: FastifyRequest, reply: FastifyReply, limit: number, record: CounterRecord): boolean {
    const own: RateLimitSnapshot = {
      bucket: this.bucket.name,
      limit,
      remaining: record.isBlocked ? 0 : Math.max(0, limit - record.totalHits),
      resetSeconds: Math.max(1, record.isBlocked ? record.timeToBlockExpire : record.timeToExpire),
    };
    const shown = this.shown(request, own);
    writeRateLimitHeaders(reply, shown);
    if (!record.isBlocked) return true;

    // `shown` has 0 remaining here; if the other bucket is exhausted too and reopens later, its
    // reset is the honest time to come back.
    reply.header('Retry-After', shown.resetSeconds);
    const wait = `${shown.resetSeconds} second${shown.resetSeconds === 1 ? '' : 's'}`;
    throw new RateLimitExceededError(`${this.refusalMessage(request, limit)} Retry in ${wait}.`, shown.resetSeconds);
  }
}
