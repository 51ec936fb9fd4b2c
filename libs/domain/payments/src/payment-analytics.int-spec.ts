import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { Amount, ConfigModule, type DeveloperContext } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { randomInt, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { PaymentConfirmationService } from './payment-confirmation.service';
import { PaymentsMaintenanceService } from './payments-maintenance.service';
import { PaymentsModule } from './payments.module';
import { PaymentsService } from './payments.service';
import { providerSuccess } from './testing';

/** The per-day payment figures recomputed from the payments table, by the rules the totals follow. */
const RECOMPUTED = `
  SELECT currency, day, sum(succeeded)::int AS succeeded, sum(failed)::int AS failed, sum(abandoned)::int AS abandoned,
         sum(volume)::numeric(20,2)::text AS volume, sum(platform_fees)::numeric(20,2)::text AS platform_fees, sum(provider_fees)::numeric(20,2)::text AS provider_fees
    FROM (SELECT currency, to_char((CASE WHEN status = 'success' THEN paid_at ELSE updated_at END) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
                 (status = 'success')::int AS succeeded, (status = 'failed')::int AS failed, (status = 'abandoned')::int AS abandoned,
                 CASE WHEN status = 'success' THEN amount ELSE 0 END AS volume,
                 CASE WHEN status = 'success' THEN platform_fee ELSE 0 END AS platform_fees,
                 CASE WHEN status = 'success' THEN provider_fee ELSE 0 END AS provider_fees
            FROM payments WHERE developer_id = $1 AND mode = $2 AND status IN ('success', 'failed', 'abandoned')) p
   GROUP BY currency, day ORDER BY day, currency`;
const ROLLUP = `
  SELECT currency, to_char(day, 'YYYY-MM-DD') AS day, sum(payments_succeeded)::int AS succeeded, sum(payments_failed)::int AS failed,
         sum(payments_abandoned)::int AS abandoned, sum(volume)::numeric(20,2)::text AS volume, sum(platform_fees)::numeric(20,2)::text AS platform_fees, sum(provider_fees)::numeric(20,2)::text AS provider_fees
    FROM analytics_daily_totals WHERE developer_id = $1 AND mode = $2
   GROUP BY currency, day HAVING sum(payments_succeeded) + sum(payments_failed) + sum(payments_abandoned) > 0 ORDER BY day, currency`;

/**
 * The analytics totals are kept in the transactions that move payments: after concurrent
 * successes (each confirmed several times at once), declines, late successes and an abandonment
 * scan, they equal the figures recomputed from the payments table, day by day, to the cent.
 */
describe('payment outcomes in the analytics totals', () => {
  let app: INestApplicationContext;
  let dataSource: DataSource;
  let payments: PaymentsService;
  let confirmation: PaymentConfirmationService;

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([ConfigModule.forRoot(testConfig({ PLATFORM_FEES: 'NGN:10' })), DevelopersModule, PaymentsModule]));
    dataSource = app.get<DataSource>(getDataSourceToken());
    payments = app.get(PaymentsService);
    confirmation = app.get(PaymentConfirmationService);
  });
  afterAll(async () => {
    await app.close();
  });

  it('40 concurrent successes, declines, late successes and abandonments: the totals equal the recomputed aggregate', async () => {
    const developer = await app.get(DevelopersService).create({ email: `rollup-${randomUUID()}@example.com`, name: 'Rollup' });
    const ctx: DeveloperContext = { developerId: developer.id, mode: 'test' };
    const create = (i: number) =>
      payments.createPayment(ctx, { amount: randomInt(10_000, 110_000) / 100, currency: i % 4 === 0 ? 'USD' : 'NGN', email: `payer-${i}@example.com` }, undefined, 'checkout');
    const paid = await Promise.all(Array.from({ length: 40 }, (_, i) => create(i)));
    const declined = await Promise.all(Array.from({ length: 8 }, (_, i) => create(100 + i)));
    const unpaid = await Promise.all(Array.from({ length: 5 }, (_, i) => create(200 + i)));

    // Every success confirmed twice at once (verify and callback racing), with a provider fee.
    await Promise.all(
      paid.flatMap((payment) => {
        const success = providerSuccess(payment, { fee: Amount.fromMinor(randomInt(0, 3_000)) });
        return [confirmation.apply(ctx, payment, success), confirmation.apply(ctx, payment, success)];
      }),
    );
    await Promise.all(declined.map((payment) => confirmation.apply(ctx, payment, { ...providerSuccess(payment), status: 'failed', gatewayResponse: 'Declined', fee: null })));
    // Half the declined customers pay after all (a late success moves them from failed).
    await Promise.all(declined.slice(0, 4).map((payment) => confirmation.apply(ctx, { ...payment, status: 'failed' }, providerSuccess(payment, { fee: Amount.parse('1.50') }))));
    // Abandonment, as of two days later: the pending ones.
    const abandoned = await app.get(PaymentsMaintenanceService).abandonAllUnpaid(ctx, new Date(Date.now() + 48 * 3_600_000));
    expect(abandoned).toBe(unpaid.length);

    const recomputed = await dataSource.query(RECOMPUTED, [ctx.developerId, ctx.mode]);
    const rollup = await dataSource.query(ROLLUP, [ctx.developerId, ctx.mode]);
    expect(rollup).toEqual(recomputed);
    const total = (rows: Array<{ succeeded: number; failed: number; abandoned: number }>) => rows.reduce((n, r) => n + r.succeeded * 1_000_000 + r.failed * 1_000 + r.abandoned, 0);
    expect(total(rollup)).toBe(44 * 1_000_000 + 4 * 1_000 + 5);
  }, 60_000);
});
