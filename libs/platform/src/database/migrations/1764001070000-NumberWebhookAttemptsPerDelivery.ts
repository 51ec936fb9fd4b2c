import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery's attempts are numbered 1, 2, … once each: the dispatcher takes the next number under
 * the delivery's row lock, and this index makes a duplicate impossible (and finds the highest
 * number without scanning the endpoint's logs). Numbers duplicated before it (an automatic attempt
 * and a manual retry used to count separately) are renumbered in the order the attempts finished.
 */
export class NumberWebhookAttemptsPerDelivery1764001070000 implements MigrationInterface {
  name = 'NumberWebhookAttemptsPerDelivery1764001070000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE webhook_delivery_logs l SET attempt = numbered.n
        FROM (SELECT id, row_number() OVER (PARTITION BY delivery_id ORDER BY created_at, attempt, id) AS n FROM webhook_delivery_logs) numbered
       WHERE l.id = numbered.id AND l.attempt <> numbered.n
         AND l.delivery_id IN (SELECT delivery_id FROM webhook_delivery_logs GROUP BY delivery_id, attempt HAVING count(*) > 1)`);
    await q.query(`CREATE UNIQUE INDEX webhook_delivery_logs_attempt ON webhook_delivery_logs (delivery_id, attempt)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_delivery_logs_attempt`);
  }
}
