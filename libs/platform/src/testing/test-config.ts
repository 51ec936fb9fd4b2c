import { type AppConfig, loadConfig } from '../config';

/** Configuration for in-process test apps: defaults plus the run's database and any overrides. */
export function testConfig(overrides: Record<string, string | undefined> = {}): AppConfig {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error('TEST_DATABASE_URL is not set: is the jest globalSetup configured?');
  return loadConfig({ NODE_ENV: 'test', DATABASE_URL: databaseUrl, REDIS_URL: process.env.REDIS_URL, ...overrides });
}
