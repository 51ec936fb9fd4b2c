import { appendFileSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
// Relative: jest loads global setup and teardown modules (global-teardown.ts imports this one) without the path aliases.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { dropTestDatabase } from '../../../../libs/platform/src/testing/test-database';

/**
 * TEST_RUN_ARTIFACTS_DIR — set by `npm run test:all` and `npm run test:reliability`
 * (tools/test/run-tests.ts) for every stage — is where a test run leaves what the reliability
 * tier's secrets-at-rest scan reads after it: the databases the e2e tests filled (kept instead of
 * dropped, listed in `databases.txt`) and the application logs of every API and scheduler the
 * tests started (`logs/*.log`). The run drops the kept databases and removes the directory once
 * every stage has run. Unset (`npm test`, or a test file run on its own), databases are dropped
 * and the apps log nowhere.
 */
export const ARTIFACTS_DIR_VARIABLE = 'TEST_RUN_ARTIFACTS_DIR';

export function artifactsDir(): string | undefined {
  return process.env[ARTIFACTS_DIR_VARIABLE] || undefined;
}

/** A test database the run is done with: kept for the scan when the run keeps artifacts, dropped otherwise. */
export async function releaseTestDatabase(url: string): Promise<void> {
  const dir = artifactsDir();
  if (!dir) return dropTestDatabase(url);
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, 'databases.txt'), `${url}\n`);
}

/** The databases kept so far (each listed once). */
export function keptDatabases(dir: string): string[] {
  try {
    return [...new Set(readFileSync(join(dir, 'databases.txt'), 'utf8').split('\n').filter(Boolean))];
  } catch {
    return [];
  }
}

/** Whether `url` is one of the e2e run's shared databases (one per jest worker), by the name its globalSetup gives it. */
export function isE2eWorkerDatabase(url: string): boolean {
  return new URL(url).pathname.startsWith('/gw_test_api_e2e_');
}

/** A file under `logs/` of the artifacts directory for one process's application log, or undefined when the run keeps none. */
export function applicationLogFile(name: string): string | undefined {
  const dir = artifactsDir();
  if (!dir) return undefined;
  mkdirSync(join(dir, 'logs'), { recursive: true });
  return join(dir, 'logs', `${name}.log`);
}

export function applicationLogFiles(dir: string): string[] {
  try {
    return readdirSync(join(dir, 'logs')).map((name) => join(dir, 'logs', name));
  } catch {
    return [];
  }
}
