import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The scan that abandons unpaid payments (PaymentsRepository.abandonUnpaid, every five minutes)
 * looks for payments still pending, or declined on a checkout the customer can still pay on, made
 * before the abandonment delay. Only pending ones had an index (`payments_pending_by_age`), so the
 * scan read the whole table each run: 250 ms at 1,000,000 payments, growing with every payment
 * ever made (docs/benchmarks.md, "The abandonment scan"). This index holds exactly the rows the scan
 * can take, by age; its predicate is the scan's (UNPAID_PAYMENT in payments.repository.ts, which an
 * integration test holds to this index). The rows leave it once abandoned or paid, so it stays as
 * small as the payments of the last day or so.
 *
 * Online, so it runs outside a transaction: built CONCURRENTLY, writes to payments go on meanwhile.
 * Every step can run again, so a migration interrupted half-way is finished by the next start.
 */
const INDEX = 'payments_unpaid_by_age';
const PREVIOUS = 'payments_pending_by_age';

export class IndexUnpaidPaymentsByAge1764003700000 implements MigrationInterface {
  name = 'IndexUnpaidPaymentsByAge1764003700000';
  // CREATE INDEX CONCURRENTLY cannot run in a transaction.
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    // A concurrent build that failed leaves an invalid index behind: build it again.
    if (await isInvalidIndex(q, INDEX)) await q.query(`DROP INDEX CONCURRENTLY ${INDEX}`);
    await q.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${INDEX} ON payments (created_at)
        WHERE status = 'pending' OR (status = 'failed' AND provider_authorization_url IS NOT NULL)`,
    );
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${PREVIOUS}`);
  }

  async down(q: QueryRunner): Promise<void> {
    if (await isInvalidIndex(q, PREVIOUS)) await q.query(`DROP INDEX CONCURRENTLY ${PREVIOUS}`);
    await q.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${PREVIOUS} ON payments (created_at) WHERE status = 'pending'`);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${INDEX}`);
  }
}

async function isInvalidIndex(q: QueryRunner, index: string): Promise<boolean> {
  const rows: unknown[] = await q.query(`SELECT 1 FROM pg_index WHERE indexrelid = to_regclass($1) AND NOT indisvalid`, [index]);
  return rows.length > 0;
}
