// Relative: jest loads global setup and teardown modules without the path aliases.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { runDatabaseUrls } from '../../../../libs/platform/src/testing/worker-databases';
import { releaseTestDatabase } from './test-artifacts';

/**
 * Jest globalTeardown of the e2e and reliability runs: the run's databases (one per worker) are
 * dropped — or, when the run keeps its artifacts for the secrets-at-rest scan (test-artifacts.ts),
 * kept and listed. KEEP_TEST_DATABASE keeps them for a person to look at.
 */
export default async function globalTeardown(): Promise<void> {
  if (process.env.KEEP_TEST_DATABASE) return;
  await Promise.all(runDatabaseUrls().map((url) => releaseTestDatabase(url)));
}
