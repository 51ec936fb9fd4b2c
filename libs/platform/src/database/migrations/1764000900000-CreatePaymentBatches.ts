import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePaymentBatches1764000900000 implements MigrationInterface {
  name = 'CreatePaymentBatches1764000900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payment_batches (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        reference text NOT NULL UNIQUE,
        status text NOT NULL CHECK (status IN ('processing', 'completed')),
        total integer NOT NULL CHECK (total > 0),
        created_at timestamptz NOT NULL,
        completed_at timestamptz
      )`);
    // Each item is processed under its own idempotency key (batch reference + position), so running
    // an item again — after a crash, or by a second worker — resumes its payment instead of making another.
    await q.query(`
      CREATE TABLE payment_batch_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        batch_id uuid NOT NULL REFERENCES payment_batches (id),
        position integer NOT NULL CHECK (position >= 0),
        type text NOT NULL CHECK (type IN ('initialize', 'charge')),
        payload jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'processing', 'succeeded', 'failed')),
        claimed_at timestamptz,
        payment_reference text,
        payment_status text,
        error jsonb,
        updated_at timestamptz NOT NULL,
        UNIQUE (batch_id, position)
      )`);
    await q.query(`CREATE INDEX payment_batch_items_open ON payment_batch_items (batch_id, position) WHERE status IN ('pending', 'processing')`);
    await q.query(`CREATE INDEX payment_batches_processing ON payment_batches (created_at) WHERE status = 'processing'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE payment_batch_items`);
    await q.query(`DROP TABLE payment_batches`);
  }
}
