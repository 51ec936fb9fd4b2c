import { loadConfig } from '@gateway/platform';
import { apiKeyLimit, clientAddress, rateLimitThrottlers } from './rate-limit-buckets';
import type { ApiKeyPrincipal } from '../auth/principal';
import type { FastifyRequest } from 'fastify';

const settings = { livePerSecond: 100, testPerSecond: 25, ipPerSecond: 200, portalAuthPerMinute: 10, redisPrefix: 'gw:' };
const principal = (mode: 'live' | 'test'): ApiKeyPrincipal => ({
  developerId: 'd',
  mode,
  keyId: 'k',
  kind: 'secret',
  scopes: [],
  allowlist: [],
});

describe('rate-limit configuration', () => {
  it('defaults to 100/s per live key, 25/s per test key, 200/s per IP and 10/min per IP on portal credential routes', () => {
    expect(loadConfig({}).rateLimits).toEqual({
      livePerSecond: 100,
      testPerSecond: 25,
      ipPerSecond: 200,
      portalAuthPerMinute: 10,
      redisPrefix: 'gateway:rate-limit:',
    });
  });

  it.each(['0', '-1', '2.5', 'many'])('refuses RATE_LIMIT_TEST_PER_SECOND=%s at start-up', (value) => {
    expect(() => loadConfig({ RATE_LIMIT_TEST_PER_SECOND: value })).toThrow('RATE_LIMIT_TEST_PER_SECOND');
  });
});

describe('rate-limit buckets', () => {
  it('limits a key by its mode', () => {
    expect(apiKeyLimit(settings, principal('live'))).toBe(100);
    expect(apiKeyLimit(settings, principal('test'))).toBe(25);
  });

  it('counts each bucket under the configured prefix, globally rather than per route', () => {
    const [ip, key, portalAuth] = rateLimitThrottlers(settings);
    expect(ip.generateKey?.(undefined as never, '203.0.113.9', 'ip')).toBe('gw:ip:203.0.113.9');
    expect(key.generateKey?.(undefined as never, 'key-id', 'api-key')).toBe('gw:api-key:key-id');
    expect(portalAuth.generateKey?.(undefined as never, '203.0.113.9', 'portal-auth')).toBe('gw:portal-auth:203.0.113.9');
    expect(portalAuth.ttl).toBe(60_000);
  });

  it('counts the trusted-proxy client IP, else the socket address, and an IPv6 client by its /64', () => {
    const request = (ip: string, clientIp?: string) => ({ ip, clientIp }) as FastifyRequest;
    expect(clientAddress(request('10.0.0.1', '203.0.113.9'))).toBe('203.0.113.9');
    expect(clientAddress(request('203.0.113.10'))).toBe('203.0.113.10');
    expect(clientAddress(request('2001:db8:1:2:aaaa::1'))).toBe(clientAddress(request('2001:db8:1:2:bbbb::2')));
    expect(clientAddress(request('2001:db8:1:2::1'))).not.toBe(clientAddress(request('2001:db8:1:3::1')));
  });
});
