import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payouts: the bank accounts a merchant pays (`transfer_recipients`) and the transfers to them.
 * A transfer's reference is also the provider's reference for it, so a retry never pays twice.
 */
export class CreateTransfers1764001500000 implements MigrationInterface {
  name = 'CreateTransfers1764001500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE transfer_recipients (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        recipient_code text NOT NULL UNIQUE,
        account_name text NOT NULL,
        account_number text NOT NULL,
        bank_code text NOT NULL,
        bank_name text NOT NULL,
        currency text NOT NULL CHECK (currency IN ('NGN', 'USD', 'GBP', 'KES')),
        provider_recipient_code text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    // One recipient per bank account and currency: adding it again answers the existing one.
    await q.query(`CREATE UNIQUE INDEX transfer_recipients_account ON transfer_recipients (developer_id, mode, bank_code, account_number, currency)`);
    await q.query(`CREATE INDEX transfer_recipients_listing ON transfer_recipients (developer_id, mode, created_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE transfers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        reference text NOT NULL UNIQUE CHECK (reference ~ '^[a-z0-9_-]{16,100}$'),
        source text NOT NULL CHECK (source IN ('bank', 'wallet')),
        recipient_id uuid NOT NULL REFERENCES transfer_recipients (id),
        amount numeric(20,2) NOT NULL CHECK (amount > 0),
        currency text NOT NULL CHECK (currency IN ('NGN', 'USD', 'GBP', 'KES')),
        reason text,
        status text NOT NULL CHECK (status IN ('pending', 'success', 'failed', 'reversed')),
        failure_reason text,
        idempotency_key text,
        request_hash text,
        provider_transfer_code text,
        created_at timestamptz NOT NULL,
        completed_at timestamptz,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX transfers_idempotency_key ON transfers (developer_id, mode, idempotency_key) WHERE idempotency_key IS NOT NULL`);
    await q.query(`CREATE INDEX transfers_listing ON transfers (developer_id, mode, created_at DESC, id DESC)`);
    // The reconciliation scan's work: transfers still waiting for the provider's word.
    await q.query(`CREATE INDEX transfers_pending ON transfers (updated_at) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE transfers`);
    await q.query(`DROP TABLE transfer_recipients`);
  }
}
