import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { Amount, ConfigModule, type DeveloperContext, inTransaction } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { randomInt, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AnalyticsModule } from './analytics.module';
import { AnalyticsService, type PaymentOutcomeChange } from './analytics.service';

/**
 * The daily totals on a real PostgreSQL: many transactions adding to one account's rows at once
 * lose nothing, moves (a late success after a decline) keep each payment counted once, and the
 * reads add slots and days up exactly.
 */
describe('AnalyticsService (daily totals)', () => {
  let app: INestApplicationContext;
  let dataSource: DataSource;
  let analytics: AnalyticsService;

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([ConfigModule.forRoot(testConfig({})), DevelopersModule, AnalyticsModule]));
    dataSource = app.get<DataSource>(getDataSourceToken());
    analytics = app.get(AnalyticsService);
  });
  afterAll(async () => {
    await app.close();
  });

  async function merchant(): Promise<DeveloperContext> {
    const developer = await app.get(DevelopersService).create({ email: `analytics-${randomUUID()}@example.com`, name: 'Analytics' });
    return { developerId: developer.id, mode: 'test' };
  }
  const at = (day: string) => new Date(`${day}T12:00:00Z`);

  it('60 concurrent successes, 10 declines and 5 late successes after a decline: every figure equals the sum of what was recorded, to the cent', async () => {
    const ctx = await merchant();
    const successes: PaymentOutcomeChange[] = Array.from({ length: 60 }, (_, i) => ({
      ...ctx,
      paymentId: randomUUID(),
      currency: i % 3 === 0 ? 'USD' : 'NGN',
      outcome: 'succeeded',
      at: at(`2026-11-${String(10 + (i % 5)).padStart(2, '0')}`),
      amount: Amount.fromMinor(randomInt(10_000, 10_000_000)),
      platformFee: Amount.parse(i % 3 === 0 ? '0' : '10'),
      providerFee: Amount.fromMinor(randomInt(0, 5_000)),
    }));
    const declined = Array.from({ length: 10 }, (_, i) => ({ ...ctx, paymentId: randomUUID(), currency: 'NGN' as const, outcome: 'failed' as const, at: at(`2026-11-0${1 + (i % 3)}`) }));
    await Promise.all([...successes, ...declined].map((change) => inTransaction(dataSource, (manager) => analytics.recordPaymentOutcome(manager, change))));
    // Half of the declined are paid later (a late success): they move from failed to succeeded.
    const late: PaymentOutcomeChange[] = declined.slice(0, 5).map((d) => ({
      ...d,
      outcome: 'succeeded',
      at: at('2026-11-12'),
      amount: Amount.parse('500.55'),
      platformFee: Amount.parse('10'),
      providerFee: Amount.parse('7.51'),
      previous: { outcome: 'failed', at: d.at },
    }));
    await Promise.all(late.map((change) => inTransaction(dataSource, (manager) => analytics.recordPaymentOutcome(manager, change))));

    const summary = await analytics.summary(ctx, { from: '2026-11-01', to: '2026-11-30' });
    for (const currency of ['NGN', 'USD'] as const) {
      const paid = [...successes, ...late].filter((s) => s.currency === currency);
      const volume = Amount.sum(paid.map((s) => s.amount as Amount));
      const platform = Amount.sum(paid.map((s) => s.platformFee as Amount));
      const provider = Amount.sum(paid.map((s) => s.providerFee as Amount));
      const figures = summary.currencies.find((c) => c.currency === currency);
      const failed = currency === 'NGN' ? 5 : 0;
      expect({
        succeeded: figures?.succeeded,
        failed: figures?.failed,
        count: figures?.count,
        volume: figures?.volume.toString(),
        fees: figures?.fees.toString(),
        net: figures?.net.toString(),
      }).toEqual({
        succeeded: paid.length,
        failed,
        count: paid.length + failed,
        volume: volume.toString(),
        fees: platform.plus(provider).toString(),
        net: volume.minus(platform).minus(provider).toString(),
      });
    }
    // The declines' days keep only the five never paid.
    const series = await analytics.timeseries(ctx, { from: '2026-11-01', to: '2026-11-03', currency: 'NGN' });
    expect(series.currencies[0].points.map((p) => p.failed).reduce((a, b) => a + b, 0)).toBe(5);
    // At most 8 rows per account, currency and day, however many payments.
    const [rows] = (await dataSource.query(`SELECT max(n)::int AS n FROM (SELECT count(*) AS n FROM analytics_daily_totals WHERE developer_id = $1 GROUP BY currency, day) t`, [ctx.developerId])) as Array<{ n: number }>;
    expect(rows.n).toBeLessThanOrEqual(8);
  }, 60_000);

  it('a processed refund counts on its day, in its currency; another account and the other mode see zeros', async () => {
    const ctx = await merchant();
    const other = await merchant();
    await inTransaction(dataSource, (manager) => analytics.recordRefundProcessed(manager, ctx, { refundId: randomUUID(), currency: 'NGN', amount: Amount.parse('40.50'), processedAt: at('2026-10-05') }));
    const mine = await analytics.summary(ctx, { from: '2026-10-01', to: '2026-10-31', currency: 'NGN' });
    expect([mine.currencies[0].refunds.toString(), mine.currencies[0].refundsCount, mine.currencies[0].net.toString()]).toEqual(['40.50', 1, '-40.50']);
    for (const scope of [other, { ...ctx, mode: 'live' as const }]) {
      const theirs = await analytics.summary(scope, { from: '2026-10-01', to: '2026-10-31' });
      expect(theirs.currencies.every((c) => c.count === 0 && c.refunds.isZero())).toBe(true);
    }
  });
});
