import type { MigrationInterface, QueryRunner } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

export class CreateWebhooks1764000700000 implements MigrationInterface {
  name = 'CreateWebhooks1764000700000';

  async up(q: QueryRunner): Promise<void> {
    // The job queue (graphile-worker) lives in its own schema. It is installed here, not on the
    // worker's first start, because the API enqueues jobs inside business transactions before any
    // worker may have run. It uses its own connection and is idempotent.
    const url = (q.connection.options as PostgresConnectionOptions).url;
    if (!url) throw new Error('CreateWebhooks needs a connection URL to install the job queue');
    // Imported here, not at the top: the API loads its migrations at start and uses nothing else of the job queue's package.
    const { runMigrations: installJobQueue } = await import('graphile-worker');
    await installJobQueue({ connectionString: url, logger: undefined });

    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        reference text NOT NULL UNIQUE,
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        url text NOT NULL,
        events text[] NOT NULL,
        webhook_version text NOT NULL CHECK (webhook_version IN ('v1', 'v2')),
        secret_ciphertext text NOT NULL,
        previous_secret_ciphertext text,
        previous_secret_expires_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        deleted_at timestamptz
      )`);
    await q.query(`CREATE INDEX webhook_endpoints_listing ON webhook_endpoints (developer_id, mode, created_at DESC, id DESC) WHERE deleted_at IS NULL`);

    // One delivery per (endpoint, event): its state and retry schedule. The lease marks an attempt
    // in flight; an expired lease on a pending delivery means the worker died mid-attempt.
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id),
        event_id text NOT NULL REFERENCES events (id),
        status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        lease_until timestamptz,
        created_at timestamptz NOT NULL,
        completed_at timestamptz,
        UNIQUE (endpoint_id, event_id)
      )`);
    await q.query(`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);

    await q.query(`
      CREATE TABLE webhook_delivery_logs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        reference text NOT NULL UNIQUE,
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id),
        event_id text NOT NULL,
        event_name text NOT NULL,
        attempt integer NOT NULL,
        trigger text NOT NULL CHECK (trigger IN ('automatic', 'manual', 'test')),
        success boolean NOT NULL,
        status_code integer,
        latency_ms integer NOT NULL,
        error text,
        response_body text,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX webhook_delivery_logs_listing ON webhook_delivery_logs (endpoint_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_delivery_logs`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhook_endpoints`);
    await q.query(`DROP SCHEMA IF EXISTS graphile_worker CASCADE`);
  }
}
