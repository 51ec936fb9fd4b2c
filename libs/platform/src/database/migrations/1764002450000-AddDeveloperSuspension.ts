import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Developer administration (docs/portal-api.md, admin developer routes):
 * - suspension: a suspended account's keys and portal members are refused until reactivated;
 * - every fee override change kept (amount null = back to the default fee);
 * - search by part of a name or e-mail: trigram indexes (pg_trgm, a trusted contrib extension since
 *   PostgreSQL 13, so the database owner may create it) serve `ILIKE '%…%'`, which a lower() btree
 *   could serve only for prefixes.
 */
export class AddDeveloperSuspension1764002450000 implements MigrationInterface {
  name = 'AddDeveloperSuspension1764002450000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE developers ADD COLUMN suspended_at timestamptz, ADD COLUMN suspension_reason text`);
    await q.query(`CREATE INDEX developers_created_at_id ON developers (created_at DESC, id DESC)`);
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`CREATE INDEX developers_name_trgm ON developers USING gin (lower(name) gin_trgm_ops)`);
    await q.query(`CREATE INDEX developers_email_trgm ON developers USING gin (lower(email) gin_trgm_ops)`);
    await q.query(`
      CREATE TABLE developer_fee_override_changes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        developer_id uuid NOT NULL REFERENCES developers (id),
        currency text NOT NULL,
        amount numeric(20,2),
        previous_amount numeric(20,2),
        changed_by text NOT NULL,
        changed_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX developer_fee_override_changes_developer ON developer_fee_override_changes (developer_id, seq DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE developer_fee_override_changes`);
    await q.query(`DROP INDEX developers_email_trgm`);
    await q.query(`DROP INDEX developers_name_trgm`);
    await q.query(`DROP INDEX developers_created_at_id`);
    await q.query(`ALTER TABLE developers DROP COLUMN suspension_reason, DROP COLUMN suspended_at`);
  }
}
