import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The reconciliation scan (PaymentsMaintenanceService.reconcileUnconfirmed) asks the provider about
 * payments still unconfirmed after a grace period. `reconcile_after` is where that grace period
 * counts from: null — the payment's creation; once asked, moved on so the next question comes when
 * the payment's age has doubled; 'infinity' — never again. The partial index holds only the
 * unconfirmed payments, per mode, in the order they fall due.
 */
export class AddPaymentReconciliation1764003350000 implements MigrationInterface {
  name = 'AddPaymentReconciliation1764003350000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payments ADD COLUMN reconcile_after timestamptz`);
    await q.query(`CREATE INDEX payments_reconcile_due ON payments (mode, (COALESCE(reconcile_after, created_at))) WHERE status IN ('pending', 'abandoned')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX payments_reconcile_due`);
    await q.query(`ALTER TABLE payments DROP COLUMN reconcile_after`);
  }
}
