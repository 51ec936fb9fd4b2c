import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { runMigrations } from '../database/data-source';

/**
 * The server tests create their databases on: TEST_DATABASE_SERVER_URL (set by `npm test`,
 * which starts the embedded server when nothing else is configured) or DATABASE_URL.
 */
export function testServerUrl(env: Record<string, string | undefined> = process.env): string {
  const url = env.TEST_DATABASE_SERVER_URL || env.DATABASE_URL;
  if (!url) {
    throw new Error('No PostgreSQL server for tests: run `npm test`, or set DATABASE_URL to a server tests may create databases on.');
  }
  return url;
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Creates a fresh, fully migrated database for one test run and returns its URL. */
export async function createTestDatabase(label: string, serverUrl = testServerUrl()): Promise<string> {
  const name = `gw_test_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  await runMigrations(url);
  return url;
}

export async function dropTestDatabase(url: string, serverUrl = testServerUrl()): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
