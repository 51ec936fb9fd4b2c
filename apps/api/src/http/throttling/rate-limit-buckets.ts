import type { ExecutionContext } from '@nestjs/common';
import { normalizeIp, type ThrottlerOptions } from '@nestjs/throttler';
import type { AppConfig } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import type { ApiKeyPrincipal } from '../auth/principal';

/** The limits are per second: every bucket counts over a 1-second window. */
export const RATE_LIMIT_WINDOW_MS = 1000;

/** Per client IP (every request, authenticated or not) and per API key (once a key is known). */
export type RateLimitBucketName = 'ip' | 'api-key';

export const IP_BUCKET: RateLimitBucketName = 'ip';
export const API_KEY_BUCKET: RateLimitBucketName = 'api-key';

export type RateLimitSettings = AppConfig['rateLimits'];

/**
 * The two named throttlers. Counters are global per IP and per key (not per route), and their
 * storage keys carry the configured prefix so several deployments can share one Redis.
 */
export function rateLimitThrottlers(settings: RateLimitSettings): ThrottlerOptions[] {
  const storageKey = (bucket: RateLimitBucketName, tracker: string) => `${settings.redisPrefix}${bucket}:${tracker}`;
  return [
    {
      name: IP_BUCKET,
      ttl: RATE_LIMIT_WINDOW_MS,
      limit: settings.ipPerSecond,
      getTracker: (_request, context) => clientAddress(requestOf(context)),
      generateKey: (_context, tracker) => storageKey(IP_BUCKET, tracker),
    },
    {
      name: API_KEY_BUCKET,
      ttl: RATE_LIMIT_WINDOW_MS,
      limit: (context) => apiKeyLimit(settings, principalOf(context)),
      // Routes without a key (public ones, or a refusal before the key guard) only have the IP bucket.
      skipIf: (context) => principalOf(context) === undefined,
      getTracker: (_request, context) => principalOf(context)?.keyId ?? '',
      generateKey: (_context, tracker) => storageKey(API_KEY_BUCKET, tracker),
    },
  ];
}

export function apiKeyLimit(settings: RateLimitSettings, principal: ApiKeyPrincipal | undefined): number {
  return principal?.mode === 'live' ? settings.livePerSecond : settings.testPerSecond;
}

/**
 * The address the IP bucket counts: the trusted-proxy-aware client IP when the client-IP hook set
 * it, else the socket peer. An IPv6 client counts by its /64, since one host usually holds a whole
 * /64 and could otherwise rotate addresses to escape the limit.
 */
export function clientAddress(request: FastifyRequest): string {
  return normalizeIp(request.clientIp ?? request.ip);
}

function requestOf(context: ExecutionContext): FastifyRequest {
  return context.switchToHttp().getRequest<FastifyRequest>();
}

function principalOf(context: ExecutionContext): ApiKeyPrincipal | undefined {
  return requestOf(context).principal;
}
