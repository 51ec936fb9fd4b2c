import { Client } from 'pg';
import type { DataSource } from 'typeorm';

/** A DataSource, or anything that queries like one (an EntityManager inside a transaction). */
export type Queryable = Pick<DataSource, 'query'>;

export interface LedgerInvariantViolation {
  violation: 'wallet_balance_mismatch' | 'posting_unbalanced' | 'entry_outside_its_posting' | 'slot_below_zero';
  developer_id: string;
  mode: string;
  currency: string;
  subject: string;
  detail: string;
}

/**
 * Every broken ledger invariant in the database, from the `ledger_invariant_violations` view:
 * Σ wallet entries ≠ Σ balance slots (per wallet and bucket), a posting not summing to zero (or
 * empty), an entry whose tenant or currency differs from its posting, a slot below zero.
 */
export async function findLedgerInvariantViolations(databaseUrlOrDataSource: string | Queryable): Promise<LedgerInvariantViolation[]> {
  const sql = 'SELECT violation, developer_id, mode, currency, subject, detail FROM ledger_invariant_violations ORDER BY violation, developer_id, subject';
  if (typeof databaseUrlOrDataSource !== 'string') return databaseUrlOrDataSource.query(sql);
  const client = new Client({ connectionString: databaseUrlOrDataSource });
  await client.connect();
  try {
    return (await client.query<LedgerInvariantViolation>(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Test helper: throws, listing the violations, unless the books agree. Call it after a test file
 * that moved money, e.g. `afterAll(() => assertLedgerInvariants(process.env.TEST_DATABASE_URL!))`.
 */
export async function assertLedgerInvariants(databaseUrlOrDataSource: string | Queryable): Promise<void> {
  const violations = await findLedgerInvariantViolations(databaseUrlOrDataSource);
  if (violations.length === 0) return;
  const lines = violations.slice(0, 20).map((v) => `- ${v.violation} ${v.mode} ${v.currency} developer ${v.developer_id} ${v.subject}: ${v.detail}`);
  const more = violations.length > 20 ? `\n… and ${violations.length - 20} more` : '';
  throw new Error(`Ledger invariants violated (${violations.length}):\n${lines.join('\n')}${more}`);
}
