import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePayments1764000600000 implements MigrationInterface {
  name = 'CreatePayments1764000600000';

  async up(q: QueryRunner): Promise<void> {
    // A card the provider saved on a successful payment. Merchants know it by our `AUTH_…` code;
    // the provider's own code stays in provider_authorization_code.
    await q.query(`
      CREATE TABLE payment_authorizations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        code text NOT NULL UNIQUE,
        customer_id uuid NOT NULL REFERENCES customers (id),
        email text NOT NULL,
        provider_authorization_code text NOT NULL,
        provider_signature text,
        reusable boolean NOT NULL,
        brand text,
        last4 text,
        exp_month text,
        exp_year text,
        bank text,
        channel text,
        created_at timestamptz NOT NULL
      )`);
    // One row per saved provider authorization and tenant: a second payment with the same card reuses it.
    await q.query(`CREATE UNIQUE INDEX payment_authorizations_provider_code ON payment_authorizations (developer_id, mode, provider_authorization_code)`);

    await q.query(`
      CREATE TABLE payments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        reference text NOT NULL UNIQUE,
        status text NOT NULL CHECK (status IN ('pending', 'success', 'failed', 'abandoned', 'scheduled', 'cancelled')),
        customer_id uuid NOT NULL REFERENCES customers (id),
        customer_reference text NOT NULL,
        email text NOT NULL,
        amount numeric(20,2) NOT NULL CHECK (amount > 0),
        currency text NOT NULL CHECK (currency IN ('NGN', 'USD', 'GBP', 'KES')),
        platform_fee numeric(20,2) CHECK (platform_fee >= 0),
        provider_fee numeric(20,2) CHECK (provider_fee >= 0),
        net_amount numeric(20,2),
        amount_refunded numeric(20,2) NOT NULL DEFAULT 0 CHECK (amount_refunded >= 0 AND amount_refunded <= amount),
        callback_url text,
        metadata jsonb NOT NULL DEFAULT '{}',
        splits jsonb NOT NULL DEFAULT '[]',
        idempotency_key text,
        -- The key space the key belongs to (the entry point: 'initialize', 'charge', 'batch_item'): the
        -- same key on two endpoints names two payments (decisions.md: method + route are in the scope).
        idempotency_scope text,
        -- SHA-256 of the canonical validated request: a retry under the key must be the same payment.
        request_fingerprint text,
        authorization_id uuid REFERENCES payment_authorizations (id),
        charge_at timestamptz,
        gateway_response text,
        channel text,
        paid_at timestamptz,
        provider_transaction_id text,
        provider_access_code text,
        provider_authorization_url text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK ((status = 'success') = (net_amount IS NOT NULL)),
        CHECK (idempotency_key IS NULL OR (idempotency_scope IS NOT NULL AND request_fingerprint IS NOT NULL))
      )`);
    await q.query(
      `CREATE UNIQUE INDEX payments_idempotency_key ON payments (developer_id, mode, idempotency_scope, idempotency_key) WHERE idempotency_key IS NOT NULL`,
    );
    await q.query(`CREATE INDEX payments_listing ON payments (developer_id, mode, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX payments_customer_listing ON payments (customer_id, created_at DESC, id DESC)`);
    // The scheduler's scans: unpaid payments to abandon, scheduled charges falling due.
    await q.query(`CREATE INDEX payments_pending_by_age ON payments (created_at) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX payments_scheduled_due ON payments (charge_at) WHERE status = 'scheduled'`);

    // Every provider webhook processed, once: a redelivered callback is recognised by its digest.
    // A delivery claims its digest (INSERT … ON CONFLICT) before processing; processed_at is set when
    // processing succeeded. A failed processing deletes the claim; a claim left by a crashed instance
    // (processed_at null, received_at old) is taken over by the next redelivery.
    await q.query(`
      CREATE TABLE provider_events (
        digest text PRIMARY KEY,
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        event text NOT NULL,
        received_at timestamptz NOT NULL,
        processed_at timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE provider_events`);
    await q.query(`DROP TABLE payments`);
    await q.query(`DROP TABLE payment_authorizations`);
  }
}
