import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rows that belong to a parent reference it together with their tenant: a ledger entry its posting
 * by (id, developer, mode, currency), a webhook delivery and a delivery's attempt log their
 * endpoint by (id, developer, mode). The database then refuses a line booked on another merchant's,
 * another mode's or another currency's posting, and a delivery or attempt of one mode or merchant
 * pointing at another's endpoint: isolation the code kept, now also a constraint.
 *
 * Each composite key replaces two: the row's key to its parent and its own key to developers (the
 * parent's key to developers still vouches for the merchant). A payment's six ledger lines were
 * checked against their posting six times and against the merchant's row six times; now six checks
 * in all. Measured under the payment flow, that saves 1-4 % of PostgreSQL's CPU, where dropping
 * every key to developers (an experiment) saved 3-11 %. So most of the cost is likely the first
 * lock a transaction takes on the merchant's shared row (FOR KEY SHARE, which concurrent payments
 * share through a multixact), and the payment's, the posting's and the event's own keys still take
 * it (docs/benchmarks.md, "The merchant's row, locked by every key to it").
 *
 * Online, so it runs outside a transaction: the parents' unique indexes are built CONCURRENTLY,
 * the keys are added NOT VALID (a moment's lock) and then validated, which reads the tables without
 * blocking writes; only dropping the old keys takes a brief exclusive lock. Every step can run
 * again, so a migration interrupted half-way is finished by the next start.
 */
const TENANT_KEYS = [
  { table: 'ledger_postings', index: 'ledger_postings_tenant_key', columns: 'id, developer_id, mode, currency' },
  { table: 'webhook_endpoints', index: 'webhook_endpoints_tenant_key', columns: 'id, developer_id, mode' },
];

/** The key each row had to its merchant, replaced by the parent's. */
const developerKey = (table: string) => ({ name: `${table}_developer_id_fkey`, definition: 'FOREIGN KEY (developer_id) REFERENCES developers (id)' });

/** A delivery or an attempt log: its endpoint, within the merchant and mode. */
const withinEndpoint = (table: string) => ({
  table,
  key: `${table}_endpoint_tenant_fkey`,
  definition: 'FOREIGN KEY (endpoint_id, developer_id, mode) REFERENCES webhook_endpoints (id, developer_id, mode)',
  replaces: [{ name: `${table}_endpoint_id_fkey`, definition: 'FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints (id)' }, developerKey(table)],
});

const REFERENCES = [
  {
    table: 'ledger_entries',
    key: 'ledger_entries_posting_tenant_fkey',
    definition: 'FOREIGN KEY (posting_id, developer_id, mode, currency) REFERENCES ledger_postings (id, developer_id, mode, currency)',
    replaces: [{ name: 'ledger_entries_posting_id_fkey', definition: 'FOREIGN KEY (posting_id) REFERENCES ledger_postings (id)' }, developerKey('ledger_entries')],
  },
  withinEndpoint('webhook_deliveries'),
  withinEndpoint('webhook_delivery_logs'),
];

export class ReferenceParentsWithinTheTenant1764003600000 implements MigrationInterface {
  name = 'ReferenceParentsWithinTheTenant1764003600000';
  // CREATE INDEX CONCURRENTLY cannot run in a transaction, and VALIDATE outside one keeps writes going.
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    for (const { table, index, columns } of TENANT_KEYS) {
      // A concurrent build that failed leaves an invalid index behind: build it again.
      if (await isInvalidIndex(q, index)) await q.query(`DROP INDEX CONCURRENTLY ${index}`);
      await q.query(`CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS ${index} ON ${table} (${columns})`);
    }
    for (const { table, key, definition, replaces } of REFERENCES) {
      await addValidatedKey(q, table, key, definition);
      await q.query(`ALTER TABLE ${table} ${replaces.map((old) => `DROP CONSTRAINT IF EXISTS ${old.name}`).join(', ')}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { table, key, replaces } of [...REFERENCES].reverse()) {
      for (const old of replaces) await addValidatedKey(q, table, old.name, old.definition);
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${key}`);
    }
    for (const { index } of [...TENANT_KEYS].reverse()) await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
  }
}

/** Adds a foreign key without blocking writes while existing rows are checked; nothing to do if it is there. */
async function addValidatedKey(q: QueryRunner, table: string, name: string, definition: string): Promise<void> {
  const existing: unknown[] = await q.query(`SELECT 1 FROM pg_constraint WHERE conrelid = $1::regclass AND conname = $2`, [table, name]);
  if (existing.length === 0) await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${name} ${definition} NOT VALID`);
  await q.query(`ALTER TABLE ${table} VALIDATE CONSTRAINT ${name}`);
}

async function isInvalidIndex(q: QueryRunner, index: string): Promise<boolean> {
  const rows: unknown[] = await q.query(`SELECT 1 FROM pg_index WHERE indexrelid = to_regclass($1) AND NOT indisvalid`, [index]);
  return rows.length > 0;
}
