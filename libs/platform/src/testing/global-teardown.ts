import { dropTestDatabase } from './test-database';

export default async function globalTeardown(): Promise<void> {
  if (process.env.TEST_DATABASE_URL && !process.env.KEEP_TEST_DATABASE) {
    await dropTestDatabase(process.env.TEST_DATABASE_URL);
  }
}
