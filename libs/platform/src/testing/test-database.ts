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

/**
 * The variable naming a migrated database that createTestDatabase copies instead of migrating a new
 * one: `npm test` migrates one for the whole run (createTemplateDatabase) and drops it at the end.
 * Copying it takes a fraction of applying every migration again. Nothing may connect to it: a
 * copy is refused while a session is open on its template.
 */
export const TEMPLATE_DATABASE_VARIABLE = 'TEST_DATABASE_TEMPLATE';

function testDatabaseName(label: string): string {
  return `gw_test_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
}

/** Creates a fresh, fully migrated database for one test run and returns its URL. */
export async function createTestDatabase(label: string, serverUrl = testServerUrl()): Promise<string> {
  const name = testDatabaseName(label);
  const template = process.env[TEMPLATE_DATABASE_VARIABLE];
  await onServer(serverUrl, (admin) => admin.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`));
  const url = withDatabase(serverUrl, name);
  if (!template) await runMigrations(url);
  return url;
}

/** A migrated database for createTestDatabase to copy (its name goes in TEMPLATE_DATABASE_VARIABLE); its URL, to drop it. */
export async function createTemplateDatabase(serverUrl = testServerUrl()): Promise<{ name: string; url: string }> {
  const name = testDatabaseName('template');
  await onServer(serverUrl, (admin) => admin.query(`CREATE DATABASE "${name}"`));
  const url = withDatabase(serverUrl, name);
  await runMigrations(url);
  return { name, url };
}

export async function dropTestDatabase(url: string, serverUrl = testServerUrl()): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  await onServer(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

async function onServer(serverUrl: string, work: (admin: Client) => Promise<unknown>): Promise<void> {
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}
