import { createTestDatabase } from './test-database';

/**
 * One fresh, migrated database per jest worker: each worker runs its files one after another on a
 * database of its own, as a run on one worker does, so files running at the same time never see
 * each other's rows, queued jobs or scans (a scheduler one file starts works on that file's
 * database only). This module is the jest globalSetup of every project with a database;
 * worker-database.setup.ts points each worker at its database. Workers are numbered from 1
 * (JEST_WORKER_ID); a run in band is worker 1. When one jest run holds several projects (the
 * middle stage of `npm test`, tools/test/projects.jest.config.js), jest runs a globalSetup module
 * once for all the projects naming it, so they share the workers' databases.
 */
const WORKER_DATABASE_PREFIX = 'TEST_DATABASE_URL_WORKER_';

export default async function createWorkerDatabases(globalConfig: { maxWorkers?: number }, projectConfig: { displayName?: { name?: string } }): Promise<void> {
  const label = projectConfig.displayName?.name ?? 'run';
  const urls = await Promise.all(Array.from({ length: Math.max(1, globalConfig.maxWorkers ?? 1) }, () => createTestDatabase(label)));
  urls.forEach((url, index) => (process.env[`${WORKER_DATABASE_PREFIX}${index + 1}`] = url));
  process.env.TEST_DATABASE_URL = urls[0];
}

/** The database of the worker this runs in (undefined outside a run that made one per worker). */
export function workerDatabaseUrl(env: Record<string, string | undefined> = process.env): string | undefined {
  return env[`${WORKER_DATABASE_PREFIX}${env.JEST_WORKER_ID ?? '1'}`];
}

/** Every database of the run: TEST_DATABASE_URL and each worker's, once each. */
export function runDatabaseUrls(env: Record<string, string | undefined> = process.env): string[] {
  const workers = Object.entries(env).filter(([name]) => name.startsWith(WORKER_DATABASE_PREFIX)).map(([, url]) => url);
  return [...new Set([env.TEST_DATABASE_URL, ...workers].filter((url): url is string => Boolean(url)))];
}
