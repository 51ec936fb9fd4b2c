import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateSubaccounts1764000550000 implements MigrationInterface {
  name = 'CreateSubaccounts1764000550000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE subaccounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        code text NOT NULL CHECK (code ~ '^ACCT_[a-z0-9]{10}$'),
        business_name text NOT NULL,
        bank_code text NOT NULL CHECK (bank_code ~ '^[0-9]{3,6}$'),
        account_number text NOT NULL CHECK (account_number ~ '^[0-9]{10}$'),
        account_name text,
        description text,
        active boolean NOT NULL DEFAULT true,
        metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX subaccounts_code_per_tenant ON subaccounts (developer_id, mode, code)`);
    // One sub-account per bank account and tenant: the unique index decides races between two creates.
    await q.query(`CREATE UNIQUE INDEX subaccounts_bank_account_per_tenant ON subaccounts (developer_id, mode, bank_code, account_number)`);
    await q.query(`CREATE INDEX subaccounts_listing ON subaccounts (developer_id, mode, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE subaccounts`);
  }
}
