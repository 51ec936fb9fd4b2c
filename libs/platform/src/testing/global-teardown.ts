import { dropTestDatabase } from './test-database';
import { runDatabaseUrls } from './worker-databases';

export default async function globalTeardown(): Promise<void> {
  if (process.env.KEEP_TEST_DATABASE) return;
  await Promise.all(runDatabaseUrls().map((url) => dropTestDatabase(url)));
}
