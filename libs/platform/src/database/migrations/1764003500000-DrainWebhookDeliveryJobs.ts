import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook deliveries are no longer queued as graphile-worker jobs: the scheduler claims due
 * deliveries straight from webhook_deliveries (a NOTIFY on commit wakes it, a poll finds retries),
 * see docs/benchmarks.md ("Webhooks"). The jobs left in the queue would never be taken; their
 * deliveries are pending and due, so the new scheduler sends them anyway. Jobs an older scheduler
 * is running right now (locked) are left to it.
 */
export class DrainWebhookDeliveryJobs1764003500000 implements MigrationInterface {
  name = 'DrainWebhookDeliveryJobs1764003500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`SELECT count(*) FROM graphile_worker.complete_jobs(ARRAY(SELECT id FROM graphile_worker.jobs WHERE task_identifier = 'webhook_delivery'))`);
  }

  /** Back to one job per pending delivery, for the scheduler that takes them (test deliveries are never scheduled). */
  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `SELECT count(*) FROM graphile_worker.add_jobs(ARRAY(
         SELECT ROW('webhook_delivery', json_build_object('delivery_id', d.id::text), NULL, d.next_attempt_at, 5, 'webhook_delivery:' || d.id::text, NULL, NULL)::graphile_worker.job_spec
           FROM webhook_deliveries d WHERE d.status = 'pending' AND d.next_attempt_at < '9999-01-01'))`,
    );
  }
}
