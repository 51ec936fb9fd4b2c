import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateVirtualAccounts1764001800000 implements MigrationInterface {
  name = 'CreateVirtualAccounts1764001800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE virtual_accounts (
        id uuid PRIMARY KEY,
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        public_id text NOT NULL UNIQUE,
        customer_id uuid NOT NULL REFERENCES customers (id),
        customer_reference text NOT NULL,
        account_number text NOT NULL,
        account_name text NOT NULL,
        bank_name text NOT NULL,
        currency text NOT NULL CHECK (currency IN ('NGN', 'USD', 'GBP', 'KES')),
        status text NOT NULL CHECK (status IN ('active', 'inactive')),
        provider_account_id text NOT NULL,
        provider_customer_code text NOT NULL,
        created_at timestamptz NOT NULL,
        deactivated_at timestamptz,
        updated_at timestamptz NOT NULL
      )`);
    // The spec's limit: one active account per customer (a deactivated one may be replaced).
    await q.query(`CREATE UNIQUE INDEX virtual_accounts_one_active_per_customer ON virtual_accounts (developer_id, mode, customer_id) WHERE status = 'active'`);
    // The provider gives the same account to the same e-mail: an active number belongs to one account, so a deposit matches one tenant.
    await q.query(`CREATE UNIQUE INDEX virtual_accounts_active_number ON virtual_accounts (mode, account_number) WHERE status = 'active'`);
    await q.query(`CREATE INDEX virtual_accounts_by_number ON virtual_accounts (mode, account_number, created_at DESC)`);
    await q.query(`CREATE INDEX virtual_accounts_listing ON virtual_accounts (developer_id, mode, created_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE virtual_account_deposits (
        id uuid PRIMARY KEY,
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        reference text NOT NULL UNIQUE,
        developer_id uuid REFERENCES developers (id),
        virtual_account_id uuid REFERENCES virtual_accounts (id),
        account_number text,
        amount numeric(20,2) NOT NULL CHECK (amount > 0),
        currency text NOT NULL CHECK (currency IN ('NGN', 'USD', 'GBP', 'KES')),
        provider_fee numeric(20,2) CHECK (provider_fee >= 0),
        platform_fee numeric(20,2) CHECK (platform_fee >= 0),
        net_amount numeric(20,2),
        sender_name text,
        sender_bank text,
        provider_transaction_id text NOT NULL,
        provider_reference text NOT NULL,
        paid_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        CHECK ((virtual_account_id IS NULL) = (developer_id IS NULL)),
        CHECK (virtual_account_id IS NULL OR (platform_fee IS NOT NULL AND provider_fee IS NOT NULL AND net_amount IS NOT NULL))
      )`);
    // Each money-in is recorded once, however often (or concurrently) the provider reports it.
    await q.query(`CREATE UNIQUE INDEX virtual_account_deposits_provider_transaction ON virtual_account_deposits (mode, provider_transaction_id)`);
    await q.query(`CREATE INDEX virtual_account_deposits_of_account ON virtual_account_deposits (virtual_account_id, created_at DESC, id DESC) WHERE virtual_account_id IS NOT NULL`);
    await q.query(`CREATE INDEX virtual_account_deposits_unmatched ON virtual_account_deposits (created_at DESC, id DESC) WHERE virtual_account_id IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE virtual_account_deposits`);
    await q.query(`DROP TABLE virtual_accounts`);
  }
}
