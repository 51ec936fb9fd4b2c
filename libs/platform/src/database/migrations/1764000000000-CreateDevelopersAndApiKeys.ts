import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateDevelopersAndApiKeys1764000000000 implements MigrationInterface {
  name = 'CreateDevelopersAndApiKeys1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE developers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL CHECK (email <> ''),
        name text NOT NULL CHECK (name <> ''),
        email_verified_at timestamptz,
        identity_verified_at timestamptz,
        settlement_bank_code text,
        settlement_account_number text,
        settlement_account_name text,
        auto_settlement_frequency text NOT NULL DEFAULT 'manual'
          CHECK (auto_settlement_frequency IN ('daily', 'weekly', 'manual')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX developers_email_key ON developers (lower(email))`);

    // Per-currency platform fee override; a row with amount 0 means "no platform fee".
    await q.query(`
      CREATE TABLE developer_fee_overrides (
        developer_id uuid NOT NULL REFERENCES developers (id) ON DELETE CASCADE,
        currency text NOT NULL CHECK (currency IN ('NGN', 'USD', 'GBP', 'KES')),
        amount numeric(20, 2) NOT NULL CHECK (amount >= 0),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (developer_id, currency)
      )`);

    // Only the SHA-256 of a key is stored; `key_hint` (prefix + last four) lets people tell keys apart.
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id) ON DELETE CASCADE,
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        kind text NOT NULL CHECK (kind IN ('secret', 'publishable')),
        key_hash char(64) NOT NULL UNIQUE,
        key_hint text NOT NULL,
        name text,
        scopes text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        revoked_at timestamptz,
        last_used_at timestamptz,
        last_used_ip text
      )`);
    await q.query(`CREATE INDEX api_keys_developer_idx ON api_keys (developer_id, mode, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE api_keys`);
    await q.query(`DROP TABLE developer_fee_overrides`);
    await q.query(`DROP TABLE developers`);
  }
}
