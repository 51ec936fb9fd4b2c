import type { MigrationInterface, QueryRunner } from 'typeorm';
import { buildIndexesOnline, type OnlineIndex, removeIndexesOnline } from './online-index';

/**
 * Indexes for three of the scheduler's scans and one lookup they make, each of which read its whole
 * table because no index matched its query (docs/benchmarks.md, "The abandonment scan" and "The
 * scheduler's other scans"):
 * - the abandonment of unpaid payments (every five minutes) takes pending ones and those declined
 *   on a checkout the customer can still pay on; the old index held the pending ones only. The new
 *   one holds exactly the rows the scan can take, so it stays as small as the last day's payments;
 * - the expiry of payment intents (every five minutes) takes holds and unused authorization links,
 *   `requires_capture` and `requires_action`, past `expires_at`; the old index held the first only;
 * - the refund resubmission (every minute) claims every pending refund untouched for a while,
 *   accepted by the provider or not; the old index held the unaccepted ones only;
 * - each refund it claims is matched with the provider's list through its payment's refunds, found
 *   by the payment's reference, which no index led with (the listing's leads with the merchant).
 * Each new partial index's predicate is its scan's (the repositories write the statuses as
 * literals, and integration tests check each scan's plan uses its index); the three indexes they
 * replace served nothing else and go.
 *
 * Online, so it runs outside a transaction: built CONCURRENTLY, writes go on meanwhile. Every step
 * can run again, so a migration interrupted half-way is finished by the next start.
 */
const INDEXES: OnlineIndex[] = [
  {
    name: 'payments_unpaid_by_age',
    definition: `payments (created_at) WHERE status = 'pending' OR (status = 'failed' AND provider_authorization_url IS NOT NULL)`,
    replaces: { name: 'payments_pending_by_age', definition: `payments (created_at) WHERE status = 'pending'` },
  },
  {
    name: 'payment_intents_lapsing',
    definition: `payment_intents (expires_at) WHERE status IN ('requires_capture', 'requires_action')`,
    replaces: { name: 'payment_intents_expiring', definition: `payment_intents (expires_at) WHERE status = 'requires_capture'` },
  },
  {
    name: 'refunds_pending_by_update',
    definition: `refunds (updated_at) WHERE status = 'pending'`,
    replaces: { name: 'refunds_unaccepted', definition: `refunds (updated_at) WHERE status = 'pending' AND provider_refund_id IS NULL` },
  },
  { name: 'refunds_of_payment_reference', definition: `refunds (payment_reference, created_at)` },
];

export class IndexDueScans1764003750000 implements MigrationInterface {
  name = 'IndexDueScans1764003750000';
  // CREATE INDEX CONCURRENTLY cannot run in a transaction.
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await buildIndexesOnline(q, INDEXES);
  }

  async down(q: QueryRunner): Promise<void> {
    await removeIndexesOnline(q, INDEXES);
  }
}
