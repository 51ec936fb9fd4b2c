import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Exports (docs/exports.md): one row per requested CSV export. The row outlives its file: after the
 * retention period the scheduler deletes the file and marks the row `expired`.
 */
export class CreateExports1764002600000 implements MigrationInterface {
  name = 'CreateExports1764002600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE exports (
        id uuid PRIMARY KEY,
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        reference text NOT NULL UNIQUE,
        type text NOT NULL CHECK (type IN ('payments', 'refunds', 'ledger', 'customers', 'transfers', 'settlements', 'disputes', 'invoices')),
        filters jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'expired')),
        rows_done bigint NOT NULL DEFAULT 0,
        rows_total bigint,
        file_key text,
        file_size bigint,
        content_sha256 text,
        requested_by text NOT NULL,
        notify_email text,
        error text,
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        started_at timestamptz,
        heartbeat_at timestamptz,
        completed_at timestamptz,
        expires_at timestamptz,
        expired_at timestamptz,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX exports_listing ON exports (developer_id, mode, created_at DESC, id DESC)`);
    // The expiry scan reads only completed exports, by their expiry time.
    await q.query(`CREATE INDEX exports_expiry_scan ON exports (expires_at) WHERE status = 'completed'`);
    // The stall sweep reads only running (and queued) exports.
    await q.query(`CREATE INDEX exports_in_flight ON exports (heartbeat_at) WHERE status IN ('queued', 'running')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE exports`);
  }
}
