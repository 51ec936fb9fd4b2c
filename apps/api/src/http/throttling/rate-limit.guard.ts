import type { ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerRequest } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitBucketName } from './rate-limit-buckets';
import { RateLimitExceededError } from './rate-limit-exceeded.error';
import { type RateLimitSnapshot, writeRateLimitHeaders } from './rate-limit-headers';

/**
 * One bucket of the rate limit, as a guard. The limit is split in two guards because the buckets
 * count at different points of the guard chain: the IP bucket before the API key is checked (so
 * key guessing is throttled), the key bucket once the key is known.
 *
 * The throttler's own counting is kept (named throttlers, storage, `@SkipThrottle`); what is ours is
 * the answer: the `X-RateLimit-*` headers show the stricter bucket, and an excess becomes the
 * envelope's `rate_limit_exceeded` with `retry_after` and a `Retry-After` header.
 */
export abstract class RateLimitGuard extends ThrottlerGuard {
  protected abstract readonly bucket: RateLimitBucketName;

  /** What the headers show, given this bucket's state after counting the request. */
  protected abstract shown(request: FastifyRequest, own: RateLimitSnapshot): RateLimitSnapshot;

  protected abstract refusalMessage(request: FastifyRequest, limit: number): string;

  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    // Both throttlers are configured once for the module; each guard counts only its own.
    this.throttlers = this.throttlers.filter((throttler) => throttler.name === this.bucket);
  }

  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, blockDuration, getTracker, generateKey } = props;
    const { request, reply } = httpOf(context);
    const key = generateKey(context, await getTracker(request, context), this.bucket);
    const record = await this.storageService.increment(key, ttl, limit, blockDuration, this.bucket);

    const own: RateLimitSnapshot = {
      bucket: this.bucket,
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

function httpOf(context: ExecutionContext): { request: FastifyRequest; reply: FastifyReply } {
  const http = context.switchToHttp();
  return { request: http.getRequest<FastifyRequest>(), reply: http.getResponse<FastifyReply>() };
}
