import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bulk transfers: a batch (`transfer_batches`) and its items (`transfer_batch_items`). Each item
 * makes one transfer through the transfers service, under an idempotency key of its own (the
 * batch's internal id and the item's position), so a crashed or repeated run of an item finds its
 * transfer instead of making (and reserving) another. Claims work as in payment batches: a claim
 * token per claim, taken over once stale.
 */
export class CreateTransferBatches1764001600000 implements MigrationInterface {
  name = 'CreateTransferBatches1764001600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE transfer_batches (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        reference text NOT NULL UNIQUE,
        status text NOT NULL CHECK (status IN ('processing', 'completed')),
        currency text NOT NULL CHECK (currency IN ('NGN', 'USD', 'GBP', 'KES')),
        total integer NOT NULL CHECK (total > 0),
        total_amount numeric(20,2) NOT NULL CHECK (total_amount > 0),
        created_at timestamptz NOT NULL,
        completed_at timestamptz
      )`);
    await q.query(`
      CREATE TABLE transfer_batch_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        batch_id uuid NOT NULL REFERENCES transfer_batches (id),
        position integer NOT NULL CHECK (position >= 0),
        payload jsonb NOT NULL,
        amount numeric(20,2) NOT NULL CHECK (amount > 0),
        status text NOT NULL CHECK (status IN ('pending', 'processing', 'succeeded', 'failed')),
        claimed_at timestamptz,
        claim_token uuid,
        transfer_reference text,
        error jsonb,
        updated_at timestamptz NOT NULL,
        UNIQUE (batch_id, position)
      )`);
    await q.query(`CREATE INDEX transfer_batch_items_open ON transfer_batch_items (batch_id, position) WHERE status IN ('pending', 'processing')`);
    await q.query(`CREATE INDEX transfer_batches_processing ON transfer_batches (created_at) WHERE status = 'processing'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE transfer_batch_items`);
    await q.query(`DROP TABLE transfer_batches`);
  }
}
