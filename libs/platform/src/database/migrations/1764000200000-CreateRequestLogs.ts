import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateRequestLogs1764000200000 implements MigrationInterface {
  name = 'CreateRequestLogs1764000200000';

  async up(q: QueryRunner): Promise<void> {
    // One row per request to the merchant API, kept 90 days (scheduler purge). developer_id and
    // api_key_id carry no foreign keys on purpose: a log row must never fail (and hold up a whole
    // batch) because its developer or key was deleted meanwhile, and deleting a key must not scan
    // this table. Unauthenticated requests have no developer, key or mode.
    await q.query(`
      CREATE TABLE request_logs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        request_id text NOT NULL,
        created_at timestamptz NOT NULL,
        duration_ms integer NOT NULL CHECK (duration_ms >= 0),
        developer_id uuid,
        api_key_id uuid,
        mode text CHECK (mode IN ('test', 'live')),
        method text NOT NULL,
        path text NOT NULL,
        route text,
        status_code smallint NOT NULL CHECK (status_code BETWEEN 100 AND 599),
        request_body jsonb,
        response_body jsonb,
        client_ip text,
        user_agent text
      )`);
    // Unique: a batch retried after an ambiguous failure (committed, but the answer was lost) is
    // written with ON CONFLICT DO NOTHING and cannot duplicate rows. Also the request-id lookup.
    await q.query(`CREATE UNIQUE INDEX request_logs_request_id_key ON request_logs (request_id)`);
    // The portal's list: one developer (and mode), newest first, keyset pagination on (created_at, id).
    await q.query(`
      CREATE INDEX request_logs_developer_recent_idx
        ON request_logs (developer_id, mode, created_at DESC, id DESC)
        WHERE developer_id IS NOT NULL`);
    // The retention purge deletes the oldest rows of every developer and of nobody.
    await q.query(`CREATE INDEX request_logs_created_at_idx ON request_logs (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE request_logs`);
  }
}
