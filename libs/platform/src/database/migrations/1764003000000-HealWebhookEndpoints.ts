import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Endpoints that heal (docs/webhooks.md, "Endpoint health"):
 *
 * - each endpoint carries its health, kept up to date by the transaction that logs an attempt:
 *   the last success, the last failure and its class, and the current run of failures (deliveries
 *   that ended `failed` since the last successful attempt, and when the run's first failed attempt
 *   was), which is what disables an endpoint;
 * - `webhook_endpoint_attempt_days` counts attempts and successes per endpoint and UTC day, so the
 *   success rate over the last days is a read of a few rows rather than of the attempt log. Each
 *   day is split in shards (chosen by delivery), so concurrent attempts to one busy endpoint do
 *   not all queue for one row's lock;
 * - an endpoint is `enabled` or `disabled` (by the scheduler's scan; re-enabled by its owner);
 * - a replayed delivery (`POST /webhooks/{id}/replay`) is marked while it waits for its one new
 *   attempt, which the delivery log records with the trigger `replay`.
 *
 * Existing rows are filled in from the attempt log: the health from every attempt, the day
 * counts for the last eight days (the window reaches back seven), the run from the failed
 * deliveries (test deliveries aside) and failed attempts since the last successful attempt.
 */
export class HealWebhookEndpoints1764003000000 implements MigrationInterface {
  name = 'HealWebhookEndpoints1764003000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_endpoints
        ADD COLUMN status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
        ADD COLUMN disabled_at timestamptz,
        ADD COLUMN disabled_reason text CHECK (disabled_reason IN ('consecutive_failures')),
        ADD COLUMN last_success_at timestamptz,
        ADD COLUMN last_failure_at timestamptz,
        ADD COLUMN last_failure_error text,
        ADD COLUMN last_failure_status_code integer,
        ADD COLUMN consecutive_failed_deliveries integer NOT NULL DEFAULT 0 CHECK (consecutive_failed_deliveries >= 0),
        ADD COLUMN failing_since timestamptz,
        ADD CONSTRAINT webhook_endpoints_disabled_state CHECK ((status = 'disabled') = (disabled_at IS NOT NULL AND disabled_reason IS NOT NULL))`);

    await q.query(`
      CREATE TABLE webhook_endpoint_attempt_days (
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id),
        day date NOT NULL,
        shard smallint NOT NULL CHECK (shard >= 0),
        attempts integer NOT NULL CHECK (attempts >= 0),
        succeeded integer NOT NULL CHECK (succeeded >= 0 AND succeeded <= attempts),
        PRIMARY KEY (endpoint_id, day, shard)
      )`);

    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN replay_requested_at timestamptz`);
    await q.query(`ALTER TABLE webhook_delivery_logs DROP CONSTRAINT webhook_delivery_logs_trigger_check`);
    await q.query(`ALTER TABLE webhook_delivery_logs ADD CONSTRAINT webhook_delivery_logs_trigger_check CHECK (trigger IN ('automatic', 'manual', 'test', 'replay'))`);

    // The disabling scan reads only enabled endpoints in a run of failures, oldest run first.
    await q.query(`CREATE INDEX webhook_endpoints_failing ON webhook_endpoints (failing_since) WHERE status = 'enabled' AND deleted_at IS NULL AND failing_since IS NOT NULL`);
    // A replay walks one endpoint's failed deliveries from `since`, in creation order.
    await q.query(`CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (endpoint_id, created_at, id) WHERE status = 'failed'`);

    await this.backfill(q);
  }

  private async backfill(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE webhook_endpoints e SET last_success_at = s.at
        FROM (SELECT endpoint_id, max(created_at) AS at FROM webhook_delivery_logs WHERE success GROUP BY endpoint_id) s
       WHERE s.endpoint_id = e.id`);
    await q.query(`
      UPDATE webhook_endpoints e
         SET last_failure_at = f.created_at, last_failure_error = f.error, last_failure_status_code = f.status_code
        FROM (SELECT DISTINCT ON (endpoint_id) endpoint_id, created_at, error, status_code
                FROM webhook_delivery_logs WHERE NOT success
               ORDER BY endpoint_id, created_at DESC, id DESC) f
       WHERE f.endpoint_id = e.id`);
    // The current run: failed attempts after the last success, and deliveries (not test ones) that
    // ended failed after it.
    await q.query(`
      UPDATE webhook_endpoints e SET failing_since = r.first_failure
        FROM (SELECT l.endpoint_id, min(l.created_at) AS first_failure
                FROM webhook_delivery_logs l JOIN webhook_endpoints x ON x.id = l.endpoint_id
               WHERE NOT l.success AND l.created_at > COALESCE(x.last_success_at, '-infinity')
               GROUP BY l.endpoint_id) r
       WHERE r.endpoint_id = e.id`);
    await q.query(`
      UPDATE webhook_endpoints e SET consecutive_failed_deliveries = r.failed
        FROM (SELECT d.endpoint_id, count(*)::int AS failed
                FROM webhook_deliveries d
                JOIN webhook_endpoints x ON x.id = d.endpoint_id
                JOIN events ev ON ev.id = d.event_id AND ev.name <> 'webhook.test'
               WHERE d.status = 'failed' AND d.completed_at > COALESCE(x.last_success_at, '-infinity')
               GROUP BY d.endpoint_id) r
       WHERE r.endpoint_id = e.id`);
    await q.query(`
      INSERT INTO webhook_endpoint_attempt_days (endpoint_id, day, shard, attempts, succeeded)
      SELECT endpoint_id, (created_at AT TIME ZONE 'UTC')::date, 0, count(*)::int, count(*) FILTER (WHERE success)::int
        FROM webhook_delivery_logs
       WHERE created_at >= now() - interval '8 days'
       GROUP BY 1, 2, 3`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_deliveries_failed`);
    await q.query(`DROP INDEX webhook_endpoints_failing`);
    // Replayed attempts keep their log rows: they read as manual retries once the trigger is gone.
    await q.query(`ALTER TABLE webhook_delivery_logs DROP CONSTRAINT webhook_delivery_logs_trigger_check`);
    await q.query(`UPDATE webhook_delivery_logs SET trigger = 'manual' WHERE trigger = 'replay'`);
    await q.query(`ALTER TABLE webhook_delivery_logs ADD CONSTRAINT webhook_delivery_logs_trigger_check CHECK (trigger IN ('automatic', 'manual', 'test'))`);
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN replay_requested_at`);
    await q.query(`DROP TABLE webhook_endpoint_attempt_days`);
    await q.query(`
      ALTER TABLE webhook_endpoints
        DROP CONSTRAINT webhook_endpoints_disabled_state,
        DROP COLUMN status, DROP COLUMN disabled_at, DROP COLUMN disabled_reason,
        DROP COLUMN last_success_at, DROP COLUMN last_failure_at, DROP COLUMN last_failure_error, DROP COLUMN last_failure_status_code,
        DROP COLUMN consecutive_failed_deliveries, DROP COLUMN failing_since`);
  }
}
