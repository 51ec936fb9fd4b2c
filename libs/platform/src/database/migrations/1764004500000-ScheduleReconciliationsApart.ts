import type { MigrationInterface, QueryRunner } from 'typeorm';
import { buildIndexesOnline, type OnlineIndex, removeIndexesOnline } from './online-index';

/**
 * The reconciliation's schedule moves out of `payments` after a payment's first ask, so asking
 * about an unpaid payment again no longer rewrites it in every index of the table.
 *
 * The scan (PaymentsRepository.claimForReconciliation) claimed a payment by moving its
 * `reconcile_after`, which `payments_reconcile_due` held in its key. An update that writes an
 * indexed column cannot be a HOT update, so each claim added an entry to every index that holds
 * the payment, nine of the table's twelve (10 WAL records and 832 bytes, and as many dead entries
 * for vacuum), about nine times for a checkout nobody pays (docs/benchmarks.md, "The
 * reconciliation's schedule, apart").
 *
 * Now:
 * - `payments_reconcile_first` holds the payments never asked about (`reconcile_after IS NULL`),
 *   by age; the first claim stamps `reconcile_after`, once;
 * - `payment_reconciliation_schedule` holds the next due time of each payment asked about and not
 *   done with, one narrow row with two indexes; the later claims move that row only.
 * `reconcile_after` keeps its meaning in both places: the instant the grace period counts from.
 * The payments already asked about and still due (their `reconcile_after` set and finite) get
 * their schedule row here, with the same value.
 *
 * Online: the table and the rows are made in one transaction, then the new index is built
 * CONCURRENTLY before the old one is dropped; every step can run again. A scheduler of the
 * previous version that claims a payment between the copy and its own stop moves that payment's
 * `reconcile_after` only, and the payment is not asked about again (callbacks, verify and the
 * abandonment still settle it): stop the previous version's schedulers before migrating.
 */
const INDEXES: OnlineIndex[] = [
  {
    name: 'payments_reconcile_first',
    definition: `payments (mode, created_at) WHERE status IN ('pending', 'abandoned') AND reconcile_after IS NULL`,
    replaces: {
      name: 'payments_reconcile_due',
      definition: `payments (mode, (COALESCE(reconcile_after, created_at))) WHERE status IN ('pending', 'abandoned')`,
    },
  },
];

export class ScheduleReconciliationsApart1764004500000 implements MigrationInterface {
  name = 'ScheduleReconciliationsApart1764004500000';
  // CREATE INDEX CONCURRENTLY cannot run in a transaction.
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await inTransaction(q, async () => {
      await q.query(`
        CREATE TABLE IF NOT EXISTS payment_reconciliation_schedule (
          payment_id uuid PRIMARY KEY REFERENCES payments (id),
          mode text NOT NULL CHECK (mode IN ('test', 'live')),
          reconcile_after timestamptz NOT NULL
        )`);
      await q.query(`CREATE INDEX IF NOT EXISTS payment_reconciliation_schedule_due ON payment_reconciliation_schedule (mode, reconcile_after)`);
      await q.query(`
        INSERT INTO payment_reconciliation_schedule (payment_id, mode, reconcile_after)
        SELECT id, mode, reconcile_after FROM payments
         WHERE status IN ('pending', 'abandoned') AND reconcile_after IS NOT NULL AND reconcile_after <> 'infinity'
        ON CONFLICT (payment_id) DO NOTHING`);
    });
    await buildIndexesOnline(q, INDEXES);
  }

  async down(q: QueryRunner): Promise<void> {
    await inTransaction(q, async () => {
      // Each schedule goes back onto its payment; a payment asked about whose schedule has ended
      // (it aged out) is never to be asked again, as before.
      await q.query(`UPDATE payments p SET reconcile_after = s.reconcile_after FROM payment_reconciliation_schedule s WHERE p.id = s.payment_id`);
      await q.query(`
        UPDATE payments p SET reconcile_after = 'infinity'
         WHERE status IN ('pending', 'abandoned') AND reconcile_after IS NOT NULL AND reconcile_after <> 'infinity'
           AND NOT EXISTS (SELECT 1 FROM payment_reconciliation_schedule s WHERE s.payment_id = p.id)`);
    });
    await removeIndexesOnline(q, INDEXES);
    await q.query(`DROP TABLE IF EXISTS payment_reconciliation_schedule`);
  }
}

/** The migration runs outside a transaction (for the indexes); its table and rows are made in one. */
async function inTransaction(q: QueryRunner, work: () => Promise<void>): Promise<void> {
  await q.startTransaction();
  try {
    await work();
    await q.commitTransaction();
  } catch (error) {
    await q.rollbackTransaction();
    throw error;
  }
}
