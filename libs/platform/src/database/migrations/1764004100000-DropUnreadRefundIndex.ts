import type { MigrationInterface, QueryRunner } from 'typeorm';
import { buildIndexesOnline, type OnlineIndex } from './online-index';

/**
 * `refunds_pending_by_payment` (AddRefundRequestHash) is read by no statement: the resubmission
 * scan it was made beside finds refunds through `refunds_pending_by_update`, and a payment's
 * refunds are found through `refunds_of_payment_reference`, which holds every refund by the same
 * key (IndexDueScans). It still took an entry for every refund created, and a dead one for each
 * the provider accepted. Dropped CONCURRENTLY, outside a transaction, so writes go on; the way
 * back builds it again the same way.
 */
const UNREAD: OnlineIndex = {
  name: 'refunds_pending_by_payment',
  definition: `refunds (payment_reference) WHERE status = 'pending' AND provider_refund_id IS NULL`,
};

export class DropUnreadRefundIndex1764004100000 implements MigrationInterface {
  name = 'DropUnreadRefundIndex1764004100000';
  // DROP INDEX CONCURRENTLY cannot run in a transaction.
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${UNREAD.name}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await buildIndexesOnline(q, [UNREAD]);
  }
}
