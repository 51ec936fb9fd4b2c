import type { QueryRunner } from 'typeorm';

/**
 * Builds an index without blocking writes (CREATE INDEX CONCURRENTLY: the migration must run with
 * `transaction = false`). A build interrupted before left an invalid index behind, which is
 * dropped and built again, so a migration stopped half-way is finished by the next start.
 */
export async function createIndexConcurrently(q: QueryRunner, name: string, definition: string): Promise<void> {
  const invalid: unknown[] = await q.query(`SELECT 1 FROM pg_index WHERE indexrelid = to_regclass($1) AND NOT indisvalid`, [name]);
  if (invalid.length > 0) await q.query(`DROP INDEX CONCURRENTLY ${name}`);
  await q.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON ${definition}`);
}
