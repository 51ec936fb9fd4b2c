import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateIdempotencyKeys1764000100000 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1764000100000';

  async up(q: QueryRunner): Promise<void> {
    // One row per (developer, mode, method, route pattern, key). The unique constraint is what makes
    // `INSERT … ON CONFLICT DO NOTHING` a race-free claim. `claim_token` changes on every claim or
    // takeover, so a request whose claim was taken over can no longer complete or release it.
    await q.query(`
      CREATE TABLE idempotency_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id) ON DELETE CASCADE,
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        method text NOT NULL CHECK (method IN ('POST', 'PUT', 'PATCH', 'DELETE')),
        route text NOT NULL CHECK (route <> ''),
        -- 1–255 printable ASCII characters (space to tilde).
        key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255 AND key !~ '[^ -~]'),
        request_hash char(64) NOT NULL,
        status text NOT NULL CHECK (status IN ('in_progress', 'completed')),
        claim_token uuid NOT NULL,
        claimed_at timestamptz NOT NULL,
        completed_at timestamptz,
        response_status smallint CHECK (response_status BETWEEN 200 AND 499),
        response_body text,
        CONSTRAINT idempotency_keys_scope_key UNIQUE (developer_id, mode, method, route, key),
        CONSTRAINT idempotency_keys_completed_has_response CHECK (
          (status = 'completed') = (completed_at IS NOT NULL AND response_status IS NOT NULL AND response_body IS NOT NULL)
        )
      )`);
    // The purge job deletes by age.
    await q.query(`CREATE INDEX idempotency_keys_claimed_at_idx ON idempotency_keys (claimed_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
  }
}
