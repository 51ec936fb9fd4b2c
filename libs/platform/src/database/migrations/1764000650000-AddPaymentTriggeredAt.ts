import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A scheduled charge is claimed (triggered_at set) before the provider is called, so two schedulers
 * never charge it twice and a schedule can no longer be cancelled once triggered. Its status stays
 * `scheduled` until the provider's answer is recorded; a claim left by a crashed scheduler is
 * picked up again after a while (the provider call carries our reference, so it charges once).
 */
export class AddPaymentTriggeredAt1764000650000 implements MigrationInterface {
  name = 'AddPaymentTriggeredAt1764000650000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payments ADD COLUMN triggered_at timestamptz`);
    await q.query(`ALTER TABLE payments ADD CONSTRAINT payments_triggered_only_when_scheduled CHECK (triggered_at IS NULL OR charge_at IS NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payments DROP CONSTRAINT payments_triggered_only_when_scheduled`);
    await q.query(`ALTER TABLE payments DROP COLUMN triggered_at`);
  }
}
