import type { MigrationInterface, QueryRunner } from 'typeorm';
import { buildIndexesOnline, type OnlineIndex, removeIndexesOnline } from './online-index';

/**
 * The abandonment scan's index no longer names the provider's checkout URL, so storing the checkout
 * link on a new payment is a HOT update again.
 *
 * PostgreSQL can update a row in place of its index entries (a HOT update) only when no index
 * names a column the update writes, in its key, an expression or its predicate. The index that
 * IndexDueScans built for the scan, `payments_unpaid_by_age`, kept declined payments whose
 * checkout is open by `provider_authorization_url IS NOT NULL`. Initialize writes that URL once
 * the provider has answered, so every checkout payment then got a new entry in each of the
 * table's indexes: 9.7 WAL records an update instead of 1.3, and as many dead entries for vacuum
 * (docs/benchmarks.md, "The checkout link's update").
 *
 * The new index keeps declined payments made without a saved card instead (`authorization_id IS
 * NULL`): the charges of a saved card, scheduled charges and captures carry their card from their
 * insert and never have a checkout, and a checkout's card is set only when it is paid. The scan
 * still checks the URL on the rows the index gives it (PaymentsRepository's UNPAID_PAYMENT), so it
 * takes exactly the payments it took before.
 *
 * Online, so it runs outside a transaction: the new index is built CONCURRENTLY before the old one
 * is dropped, and writes go on meanwhile.
 */
const INDEXES: OnlineIndex[] = [
  {
    name: 'payments_abandonable_by_age',
    definition: `payments (created_at) WHERE status = 'pending' OR (status = 'failed' AND authorization_id IS NULL)`,
    replaces: {
      name: 'payments_unpaid_by_age',
      definition: `payments (created_at) WHERE status = 'pending' OR (status = 'failed' AND provider_authorization_url IS NOT NULL)`,
    },
  },
];

export class KeepCheckoutLinkUpdatesHot1764004000000 implements MigrationInterface {
  name = 'KeepCheckoutLinkUpdatesHot1764004000000';
  // CREATE INDEX CONCURRENTLY cannot run in a transaction.
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await buildIndexesOnline(q, INDEXES);
  }

  async down(q: QueryRunner): Promise<void> {
    await removeIndexesOnline(q, INDEXES);
  }
}
