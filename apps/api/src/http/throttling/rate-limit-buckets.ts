import type { ExecutionContext } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';
import type { AppConfig } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import type { ApiKeyPrincipal } from '../auth/principal';

/** The API limits are per second: their buckets count over a 1-second window. */
export const RATE_LIMIT_WINDOW_MS = 1000;
/** The portal's credential routes are limited per minute: guessing needs many tries, people few. */
export const PORTAL_AUTH_WINDOW_MS = 60_000;

/**
 * Per client IP (every request, authenticated or not), per API key (once a key is known), and per
 * client IP again on the portal routes that check a password, code or link token.
 */
export type RateLimitBucketName = 'ip' | 'api-key' | 'portal-auth';

export const IP_BUCKET: RateLimitBucketName = 'ip';
export const API_KEY_BUCKET: RateLimitBucketName = 'api-key';
export const PORTAL_AUTH_BUCKET: RateLimitBucketName = 'portal-auth';

export type RateLimitSettings = AppConfig['rateLimits'];

/** How one bucket counts. Everything is synchronous: it runs on every request. */
export interface RateLimitBucket {
  name: RateLimitBucketName;
  /** Window length in ms; a bucket past its limit also stays closed this long. */
  ttl: number;
  limit: (request: FastifyRequest) => number;
  /** True when this bucket does not apply to the request. */
  skipIf?: (request: FastifyRequest) => boolean;
  getTracker: (request: FastifyRequest) => string;
  generateKey: (context: ExecutionContext | undefined, tracker: string, bucket: RateLimitBucketName) => string;
}

/**
 * The three buckets. Counters are global per IP and per key (not per route; the portal-auth one
 * is shared by all the routes it guards), and their storage keys carry the configured prefix so
 * several deployments can share one Redis.
 */
export function rateLimitThrottlers(settings: RateLimitSettings): [ip: RateLimitBucket, apiKey: RateLimitBucket, portalAuth: RateLimitBucket] {
  const ipPrefix = `${settings.redisPrefix}${IP_BUCKET}:`;
  const keyPrefix = `${settings.redisPrefix}${API_KEY_BUCKET}:`;
  const portalAuthPrefix = `${settings.redisPrefix}${PORTAL_AUTH_BUCKET}:`;
  return [
    {
      name: IP_BUCKET,
      ttl: RATE_LIMIT_WINDOW_MS,
      limit: () => settings.ipPerSecond,
      getTracker: (request) => clientAddress(request),
      generateKey: (_context, tracker) => ipPrefix + tracker,
    },
    {
      name: API_KEY_BUCKET,
      ttl: RATE_LIMIT_WINDOW_MS,
      limit: (request) => apiKeyLimit(settings, request.principal),
      // Routes without a key (public ones, or a refusal before the key guard) only have the IP bucket.
      skipIf: (request) => request.principal === undefined,
      getTracker: (request) => request.principal?.keyId ?? '',
      generateKey: (_context, tracker) => keyPrefix + tracker,
    },
    {
      name: PORTAL_AUTH_BUCKET,
      ttl: PORTAL_AUTH_WINDOW_MS,
      limit: () => settings.portalAuthPerMinute,
      getTracker: (request) => clientAddress(request),
      generateKey: (_context, tracker) => portalAuthPrefix + tracker,
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
