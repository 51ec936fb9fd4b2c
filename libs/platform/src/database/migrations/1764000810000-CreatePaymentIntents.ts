import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePaymentIntents1764000810000 implements MigrationInterface {
  name = 'CreatePaymentIntents1764000810000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payment_intents (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        reference text NOT NULL UNIQUE,
        status text NOT NULL CHECK (status IN ('requires_capture', 'succeeded', 'canceled', 'expired')),
        capture_method text NOT NULL CHECK (capture_method = 'manual'),
        amount numeric(20,2) NOT NULL CHECK (amount > 0),
        captured_amount numeric(20,2) CHECK (captured_amount > 0 AND captured_amount <= amount),
        currency text NOT NULL CHECK (currency IN ('NGN', 'USD', 'GBP', 'KES')),
        email text NOT NULL,
        customer_id uuid NOT NULL REFERENCES customers (id),
        authorization_id uuid NOT NULL REFERENCES payment_authorizations (id),
        metadata jsonb NOT NULL DEFAULT '{}',
        payment_id uuid REFERENCES payments (id),
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX payment_intents_listing ON payment_intents (developer_id, mode, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX payment_intents_expiring ON payment_intents (expires_at) WHERE status = 'requires_capture'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE payment_intents`);
  }
}
