import { randomBytes } from 'node:crypto';
import { type AppConfig, loadConfig } from '../config';

/**
 * Configuration for in-process test apps: the run's database, REDIS_URL when the machine has one,
 * no provider (tests start their own simulator) and rate limits high enough not to interfere — in
 * a Redis namespace of their own, so parallel test files and concurrent runs never share counters.
 * Rate-limit tests override all of this.
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
    RATE_LIMIT_PORTAL_AUTH_PER_MINUTE: '100000',
    RATE_LIMIT_REDIS_PREFIX: `gateway-test:${randomBytes(6).toString('hex')}:`,
    // No provider unless a test starts its own simulator and passes PROVIDER_*: port 9 refuses
    // connections, so a test can never reach (and mutate) the development simulator `npm start` runs.
    // Secrets of no account anywhere, so NODE_ENV=production tests start (production refuses the defaults).
    PROVIDER_TEST_BASE_URL: 'http://127.0.0.1:9',
    PROVIDER_LIVE_BASE_URL: 'http://127.0.0.1:9',
    PROVIDER_TEST_SECRET_KEY: 'sk_test_no_provider',
    PROVIDER_LIVE_SECRET_KEY: 'sk_live_no_provider',
    PROVIDER_TIMEOUT_MS: '5000',
    // OWASP's cheapest argon2id profile (7 MiB, 5 passes, one lane): a real hash at a cost an
    // operator may choose, about a twentieth of the default's CPU. The suites sign in hundreds of
    // times; at the default (64 MiB, 3 passes, 4 lanes) that was a fifth of their CPU.
    PORTAL_PASSWORD_HASH_MEMORY_KIB: '7168',
    PORTAL_PASSWORD_HASH_ITERATIONS: '5',
    PORTAL_PASSWORD_HASH_PARALLELISM: '1',
    ...overrides,
  });
}
