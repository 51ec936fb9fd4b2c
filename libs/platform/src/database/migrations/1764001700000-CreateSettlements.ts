import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Withdrawals from the wallet to the account's registered bank account, approved by platform
 * staff (`settlement_decisions`: who approved or rejected, when, from where). A settlement's
 * reference is also the provider's reference for its payout, so the bank is paid once.
 */
export class CreateSettlements1764001700000 implements MigrationInterface {
  name = 'CreateSettlements1764001700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE settlements (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode = 'live'),
        reference text NOT NULL UNIQUE CHECK (reference ~ '^[a-z0-9_-]{16,100}$'),
        amount numeric(20,2) NOT NULL CHECK (amount > 0),
        currency text NOT NULL CHECK (currency IN ('NGN', 'USD', 'GBP', 'KES')),
        status text NOT NULL CHECK (status IN ('pending_approval', 'approved', 'processing', 'completed', 'failed', 'rejected')),
        origin text NOT NULL CHECK (origin IN ('manual', 'auto')),
        bank_code text NOT NULL,
        account_number text NOT NULL,
        account_name text NOT NULL,
        requested_by uuid REFERENCES users (id),
        requested_ip text,
        approvals_required integer NOT NULL CHECK (approvals_required IN (1, 2)),
        auto_period text,
        provider_transfer_code text,
        failure_reason text,
        rejection_reason text,
        created_at timestamptz NOT NULL,
        approved_at timestamptz,
        completed_at timestamptz,
        updated_at timestamptz NOT NULL,
        CHECK ((origin = 'manual') = (requested_by IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX settlements_listing ON settlements (developer_id, mode, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX settlements_queue ON settlements (status, created_at)`);
    // One auto-settlement per account, currency and period (day or week), however many schedulers run.
    await q.query(`CREATE UNIQUE INDEX settlements_auto_period ON settlements (developer_id, currency, auto_period) WHERE auto_period IS NOT NULL`);

    await q.query(`
      CREATE TABLE settlement_decisions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        settlement_id uuid NOT NULL REFERENCES settlements (id),
        user_id uuid REFERENCES users (id),
        decision text NOT NULL CHECK (decision IN ('approve', 'reject')),
        ip text,
        reason text,
        created_at timestamptz NOT NULL
      )`);
    // A person decides once per settlement; the auto-approval (no user) happens once too.
    await q.query(`CREATE UNIQUE INDEX settlement_decisions_once ON settlement_decisions (settlement_id, COALESCE(user_id, '00000000-0000-0000-0000-000000000000'::uuid))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE settlement_decisions`);
    await q.query(`DROP TABLE settlements`);
  }
}
