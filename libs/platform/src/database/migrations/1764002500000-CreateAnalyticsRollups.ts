import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Daily totals per account, mode, currency and UTC day, kept by the analytics module in the same
 * transaction as each payment outcome and processed refund, so a summary over months reads a few
 * hundred rows instead of every payment. Rows are spread over 8 slots per day (the slot comes from
 * the payment's or refund's id), so one busy account's concurrent payments do not queue behind one
 * row lock; readers add the slots up.
 *
 * Day: a success counts on the UTC day of `paid_at`; a decline or abandonment on the UTC day it was
 * recorded (`updated_at` of that move, which no later change of a failed or abandoned payment
 * touches but its next move); a refund on the UTC day of `processed_at`. The backfill below applies
 * the same rules to the rows that exist when it runs.
 */
export class CreateAnalyticsRollups1764002500000 implements MigrationInterface {
  name = 'CreateAnalyticsRollups1764002500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE analytics_daily_totals (
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        currency text NOT NULL CHECK (currency IN ('NGN', 'USD', 'GBP', 'KES')),
        day date NOT NULL,
        slot smallint NOT NULL CHECK (slot BETWEEN 0 AND 7),
        payments_succeeded bigint NOT NULL DEFAULT 0,
        payments_failed bigint NOT NULL DEFAULT 0,
        payments_abandoned bigint NOT NULL DEFAULT 0,
        volume numeric(20,2) NOT NULL DEFAULT 0,
        platform_fees numeric(20,2) NOT NULL DEFAULT 0,
        provider_fees numeric(20,2) NOT NULL DEFAULT 0,
        refunded_amount numeric(20,2) NOT NULL DEFAULT 0,
        refunds_count bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (developer_id, mode, currency, day, slot)
      )`);
    // The platform-wide figures of the admin pages: every account of one mode, by day.
    await q.query(`CREATE INDEX analytics_daily_totals_platform ON analytics_daily_totals (mode, day)`);

    // Top customers: an account's successful payments by the day they were paid, with what the
    // ranking adds up, so it is answered from the index alone.
    await q.query(
      `CREATE INDEX payments_paid_by_tenant ON payments (developer_id, mode, paid_at) INCLUDE (currency, customer_id, amount) WHERE status = 'success'`,
    );

    // The backfill: the same rules as the live updates (see the class comment and analytics-slot.ts).
    await q.query(`
      INSERT INTO analytics_daily_totals (developer_id, mode, currency, day, slot, payments_succeeded, payments_failed, payments_abandoned,
                                          volume, platform_fees, provider_fees, refunded_amount, refunds_count)
      SELECT developer_id, mode, currency, day, slot,
             sum(succeeded), sum(failed), sum(abandoned), sum(volume), sum(platform_fees), sum(provider_fees), sum(refunded), sum(refunds)
        FROM (
          SELECT developer_id, mode, currency,
                 (CASE WHEN status = 'success' THEN paid_at ELSE updated_at END AT TIME ZONE 'UTC')::date AS day,
                 ('x' || right(id::text, 2))::bit(8)::int % 8 AS slot,
                 (status = 'success')::int AS succeeded, (status = 'failed')::int AS failed, (status = 'abandoned')::int AS abandoned,
                 CASE WHEN status = 'success' THEN amount ELSE 0 END AS volume,
                 CASE WHEN status = 'success' THEN COALESCE(platform_fee, 0) ELSE 0 END AS platform_fees,
                 CASE WHEN status = 'success' THEN COALESCE(provider_fee, 0) ELSE 0 END AS provider_fees,
                 0::numeric AS refunded, 0 AS refunds
            FROM payments WHERE status IN ('success', 'failed', 'abandoned')
          UNION ALL
          SELECT developer_id, mode, currency, (processed_at AT TIME ZONE 'UTC')::date, ('x' || right(id::text, 2))::bit(8)::int % 8,
                 0, 0, 0, 0, 0, 0, amount, 1
            FROM refunds WHERE status = 'processed'
        ) outcomes
       GROUP BY developer_id, mode, currency, day, slot`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX payments_paid_by_tenant`);
    await q.query(`DROP TABLE analytics_daily_totals`);
  }
}
