import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateRefunds1764000800000 implements MigrationInterface {
  name = 'CreateRefunds1764000800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE refunds (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        reference text NOT NULL UNIQUE,
        payment_id uuid NOT NULL REFERENCES payments (id),
        payment_reference text NOT NULL,
        amount numeric(20,2) NOT NULL CHECK (amount > 0),
        currency text NOT NULL CHECK (currency IN ('NGN', 'USD', 'GBP', 'KES')),
        reason text,
        status text NOT NULL CHECK (status IN ('pending', 'processed', 'failed')),
        idempotency_key text,
        provider_refund_id text,
        created_at timestamptz NOT NULL,
        processed_at timestamptz,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX refunds_idempotency_key ON refunds (developer_id, mode, idempotency_key) WHERE idempotency_key IS NOT NULL`);
    await q.query(`CREATE INDEX refunds_listing ON refunds (developer_id, mode, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX refunds_by_payment ON refunds (payment_id)`);
    await q.query(`CREATE UNIQUE INDEX refunds_provider_id ON refunds (mode, provider_refund_id) WHERE provider_refund_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE refunds`);
  }
}
