import { createTestDatabase } from './test-database';

/**
 * Jest globalSetup: one fresh, migrated database per test run of a project. Workers inherit
 * TEST_DATABASE_URL from this process's environment.
 */
export default async function globalSetup(globalConfig: { displayName?: unknown }, projectConfig: { displayName?: { name?: string } }): Promise<void> {
  const label = projectConfig.displayName?.name ?? String(globalConfig.displayName ?? 'run');
  process.env.TEST_DATABASE_URL = await createTestDatabase(label);
}
