import type { QueryRunner } from 'typeorm';

/** An index a migration builds without blocking writes, and the one it takes the place of, if any. */
export interface OnlineIndex {
  name: string;
  /** What follows `CREATE INDEX <name> ON`. */
  definition: string;
  replaces?: { name: string; definition: string };
}

/**
 * Builds each index, then drops the one it replaces, all CONCURRENTLY: writes go on meanwhile, and
 * the migration must run with `transaction = false`. Every step can run again, so a migration
 * interrupted half-way is finished by the next start.
 */
export async function buildIndexesOnline(q: QueryRunner, indexes: readonly OnlineIndex[]): Promise<void> {
  for (const { name, definition, replaces } of indexes) {
    await createIndexConcurrently(q, name, definition);
    if (replaces) await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${replaces.name}`);
  }
}

/** The way back from buildIndexesOnline: the replaced indexes built again, the new ones dropped. */
export async function removeIndexesOnline(q: QueryRunner, indexes: readonly OnlineIndex[]): Promise<void> {
  for (const { name, replaces } of [...indexes].reverse()) {
    if (replaces) await createIndexConcurrently(q, replaces.name, replaces.definition);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
  }
}

/** A build interrupted before left an invalid index behind, which is dropped and built again. */
async function createIndexConcurrently(q: QueryRunner, name: string, definition: string): Promise<void> {
  const invalid: unknown[] = await q.query(`SELECT 1 FROM pg_index WHERE indexrelid = to_regclass($1) AND NOT indisvalid`, [name]);
  if (invalid.length > 0) await q.query(`DROP INDEX CONCURRENTLY ${name}`);
  await q.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON ${definition}`);
}
