import { releaseTestDatabase } from './test-artifacts';

/**
 * Jest globalTeardown of the e2e and reliability runs: the run's database is dropped — or, when
 * the run keeps its artifacts for the secrets-at-rest scan (test-artifacts.ts), kept and listed.
 * KEEP_TEST_DATABASE keeps it for a person to look at.
 */
export default async function globalTeardown(): Promise<void> {
  if (process.env.TEST_DATABASE_URL && !process.env.KEEP_TEST_DATABASE) {
    await releaseTestDatabase(process.env.TEST_DATABASE_URL);
  }
}
