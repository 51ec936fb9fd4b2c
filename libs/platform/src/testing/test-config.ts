import { randomBytes } from 'node:crypto';
import { type AppConfig, loadConfig } from '../config';

/**
 * Configuration for in-process test apps: the run's database, REDIS_URL when the machine has one,
 * and rate limits high enough not to interfere — in a Redis namespace of their own, so parallel
 * test files and concurrent runs never share counters. Rate-limit tests override all of this.
 */
export function testConfig(overrides: Record<string, string | undefined> = {}): AppConfig {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error('TEST_DATABASE_URL is not set: is the jest globalSetup configured?');
  return loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL,
    RATE_LIMIT_TEST_PER_SECOND: '100000',
    RATE_LIMIT_LIVE_PER_SECOND: '100000',
    RATE_LIMIT_IP_PER_SECOND: '100000',
    RATE_LIMIT_REDIS_PREFIX: `gateway-test:${randomBytes(6).toString('hex')}:`,
    ...overrides,
  });
}
