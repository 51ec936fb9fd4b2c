import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admin console's failing webhook endpoints (GET /api/portal/admin/webhooks/failing) read the
 * failed attempts of the last seven days across every account. Failures are a small share of the
 * log, so a partial index on their time serves that window without scanning every attempt.
 */
export class IndexFailedWebhookAttempts1764002700000 implements MigrationInterface {
  name = 'IndexFailedWebhookAttempts1764002700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX webhook_delivery_logs_failures ON webhook_delivery_logs (created_at) WHERE success = false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_delivery_logs_failures`);
  }
}
