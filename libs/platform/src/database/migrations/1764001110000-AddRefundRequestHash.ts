import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `request_hash`: what a refund's Idempotency-Key was first used for (payment, requested amount,
 * reason), so a retry with the same key and another amount or reason is refused even when the
 * API's idempotency record was not kept (a 5xx is never stored). The partial index serves the
 * scan that resubmits refunds the provider never accepted (no provider id stored yet).
 */
export class AddRefundRequestHash1764001110000 implements MigrationInterface {
  name = 'AddRefundRequestHash1764001110000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refunds ADD COLUMN request_hash text`);
    await q.query(`CREATE INDEX refunds_unaccepted ON refunds (updated_at) WHERE status = 'pending' AND provider_refund_id IS NULL`);
    await q.query(`CREATE INDEX refunds_pending_by_payment ON refunds (payment_reference) WHERE status = 'pending' AND provider_refund_id IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX refunds_pending_by_payment`);
    await q.query(`DROP INDEX refunds_unaccepted`);
    await q.query(`ALTER TABLE refunds DROP COLUMN request_hash`);
  }
}
