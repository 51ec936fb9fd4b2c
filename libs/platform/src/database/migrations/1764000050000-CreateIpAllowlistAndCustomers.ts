import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateIpAllowlistAndCustomers1764000050000 implements MigrationInterface {
  name = 'CreateIpAllowlistAndCustomers1764000050000';

  async up(q: QueryRunner): Promise<void> {
    // An entry with api_key_id NULL applies to every key of the developer; otherwise to that key only.
    await q.query(`
      CREATE TABLE ip_allowlist_entries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id) ON DELETE CASCADE,
        api_key_id uuid REFERENCES api_keys (id) ON DELETE CASCADE,
        cidr cidr NOT NULL,
        label text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX ip_allowlist_entries_unique ON ip_allowlist_entries (developer_id, COALESCE(api_key_id, '00000000-0000-0000-0000-000000000000'), cidr)`);

    await q.query(`
      CREATE TABLE customers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        reference text NOT NULL UNIQUE,
        email text NOT NULL,
        name text,
        phone text,
        metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX customers_email_per_tenant ON customers (developer_id, mode, lower(email))`);
    await q.query(`CREATE INDEX customers_listing ON customers (developer_id, mode, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE customers`);
    await q.query(`DROP TABLE ip_allowlist_entries`);
  }
}
