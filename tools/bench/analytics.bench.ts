import 'reflect-metadata';
import { AnalyticsModule, AnalyticsService } from '@gateway/domain/analytics';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { PaymentsModule, PaymentsService } from '@gateway/domain/payments';
import { ConfigModule, type DeveloperContext } from '@gateway/platform';
import { createDomainTestContext, createTestDatabase, dropTestDatabase, testConfig } from '@gateway/platform/testing';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';

/**
 * Analytics on a big account: 1,000,000 payments of one live account over 95 days (85 % success,
 * 10 % declined, 5 % abandoned; NGN and USD; 20,000 customers) and a processed refund for 1 % of
 * them, seeded with plain SQL; the daily totals built by the migration's backfill. Then the 90-day
 * summary and time series through the real AnalyticsService, the top customers through the real
 * PaymentsService, and, for comparison, the same summary aggregated from the payments table.
 * Prints p50/p95 in ms. See docs/benchmarks.md ("Analytics").
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:analytics
 */
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 1_000_000);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const CHUNK = 250_000;
const DAY_MS = 86_400_000;
/** 95 days of payments, spread evenly: one every SPREAD_SECONDS. */
const SPREAD_SECONDS = (95 * 86_400) / PAYMENTS;

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_SERVER_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server the benchmark may create a database on.');
  // BENCH_DATABASE_URL: measure again on a database an earlier run seeded and kept (BENCH_KEEP_DATABASE=1).
  const reused = process.env.BENCH_DATABASE_URL;
  const databaseUrl = reused ?? (await createTestDatabase('bench_analytics', serverUrl));
  process.env.TEST_DATABASE_URL = databaseUrl;
  const { app } = await createDomainTestContext([ConfigModule.forRoot(testConfig({})), DevelopersModule, AnalyticsModule, PaymentsModule]);
  try {
    const dataSource = app.get(DataSource);
    const ctx: DeveloperContext = reused
      ? { developerId: ((await dataSource.query(`SELECT developer_id FROM payments WHERE reference = 'PAY-bench-0'`)) as Array<{ developer_id: string }>)[0].developer_id, mode: 'live' }
      : await seed(app.get(DevelopersService), dataSource);

    const analytics = app.get(AnalyticsService);
    const payments = app.get(PaymentsService);
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 89 * DAY_MS).toISOString().slice(0, 10);
    const query = { from, to };

    // The figures are those of the payments table (the 90 days, recomputed directly, exact).
    const summary = await analytics.summary(ctx, query);
    const direct = await directSummary(dataSource, ctx, from, to);
    for (const entry of summary.currencies.filter((c) => c.count > 0)) {
      const expected = direct.find((d) => d.currency === entry.currency);
      const actual = { currency: entry.currency, succeeded: entry.succeeded, failed: entry.failed, abandoned: entry.abandoned, volume: entry.volume.toString(), fees: entry.fees.toString(), refunds: entry.refunds.toString() };
      if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`summary differs from the payments table: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`);
      log(`  ${entry.currency}: ${entry.count.toLocaleString()} outcomes, volume ${entry.volume.toString()}, net ${entry.net.toString()} — equal to the payments table`);
    }

    const results = [
      await measure('summary, 90 days (daily totals)', () => analytics.summary(ctx, query)),
      await measure('timeseries, 90 days by day', () => analytics.timeseries(ctx, { ...query, interval: 'day' })),
      await measure('timeseries, 90 days by week', () => analytics.timeseries(ctx, { ...query, interval: 'week' })),
      await measure('top customers, 90 days (payments index)', () => payments.topCustomers(ctx, query, 5)),
      await measure('summary + top customers side by side', () => Promise.all([analytics.summary(ctx, query), payments.topCustomers(ctx, query, 5)])),
      await measure('for comparison: summary from the payments table', () => directSummary(dataSource, ctx, from, to), Math.min(RUNS, 5)),
    ];
    console.log('');
    console.log(`load average while measuring: ${loadavg().map((l) => l.toFixed(1)).join(' ')} (${cpus().length} cores)`);
    console.log('| measurement | runs | p50 ms | p95 ms | CPU ms/run (node) |');
    console.log('|---|---:|---:|---:|---:|');
    for (const r of results) console.log(`| ${r.label} | ${r.runs} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.cpuMs.toFixed(1)} |`);
  } finally {
    await app.close();
    if (!reused && !process.env.BENCH_KEEP_DATABASE) await dropTestDatabase(databaseUrl);
  }
}

/** One live account's customers, payments and refunds (plain SQL), and its daily totals built by the migration's backfill. */
async function seed(developers: DevelopersService, dataSource: DataSource): Promise<DeveloperContext> {
  const developer = await developers.create({ email: `bench-analytics-${Date.now()}@example.com`, name: 'Big account' });
  const ctx: DeveloperContext = { developerId: developer.id, mode: 'live' };
  log(`seeding ${CUSTOMERS.toLocaleString()} customers and ${PAYMENTS.toLocaleString()} payments…`);
  let started = performance.now();
  await dataSource.query(
    `INSERT INTO customers (developer_id, mode, reference, email, created_at)
     SELECT $1, 'live', 'CUS_bench_' || n, 'customer-' || n || '@example.com', now() - interval '100 days' FROM generate_series(0, $2 - 1) n`,
    [ctx.developerId, CUSTOMERS],
  );
  await dataSource.query(`CREATE TEMP TABLE bench_customers AS SELECT (substring(reference from 11))::int AS n, id, reference, email FROM customers WHERE developer_id = $1`, [ctx.developerId]);
  await dataSource.query(`CREATE INDEX ON bench_customers (n)`);
  for (let first = 0; first < PAYMENTS; first += CHUNK) {
    await dataSource.query(
      `INSERT INTO payments (developer_id, mode, reference, status, customer_id, customer_reference, email, amount, currency,
                             platform_fee, provider_fee, net_amount, paid_at, created_at, updated_at)
       SELECT $1, 'live', 'PAY-bench-' || g, p.status, c.id, c.reference, c.email, p.amount, p.currency,
              CASE WHEN p.status = 'success' THEN p.platform_fee END, CASE WHEN p.status = 'success' THEN p.provider_fee END,
              CASE WHEN p.status = 'success' THEN p.amount - p.platform_fee - p.provider_fee END,
              CASE WHEN p.status = 'success' THEN p.created_at + interval '40 seconds' END, p.created_at, p.created_at + interval '40 seconds'
         FROM generate_series($2::int, $3::int) g
         CROSS JOIN LATERAL (
           SELECT CASE WHEN g % 20 < 17 THEN 'success' WHEN g % 20 < 19 THEN 'failed' ELSE 'abandoned' END AS status,
                  CASE WHEN g % 10 = 0 THEN 'USD' ELSE 'NGN' END AS currency,
                  round(100 + ((g::bigint * 7919) % 9990000) / 100.0, 2) AS amount,
                  CASE WHEN g % 10 = 0 THEN 0 ELSE 10 END AS platform_fee,
                  least(round((100 + ((g::bigint * 7919) % 9990000) / 100.0) * 0.015, 2), 2000) AS provider_fee,
                  now() - g * ($4::float8 * interval '1 second') AS created_at) p
         JOIN bench_customers c ON c.n = (g::bigint * 7907) % $5`,
      [ctx.developerId, first, Math.min(first + CHUNK, PAYMENTS) - 1, SPREAD_SECONDS, CUSTOMERS],
    );
    log(`  ${Math.min(first + CHUNK, PAYMENTS).toLocaleString()} payments`);
  }
  const refunds = await dataSource.query(
    `INSERT INTO refunds (developer_id, mode, reference, payment_id, payment_reference, amount, currency, status, created_at, processed_at, updated_at)
     SELECT developer_id, mode, 'RFD_bench_' || reference, id, reference, round(amount / 2, 2), currency, 'processed', paid_at + interval '1 hour', paid_at + interval '1 hour', paid_at + interval '1 hour'
       FROM payments WHERE developer_id = $1 AND status = 'success' AND right(reference, 2) = '00'
     RETURNING 1`,
    [ctx.developerId],
  );
  log(`  ${refunds.length.toLocaleString()} processed refunds; seeded in ${seconds(started)} s`);

  // The daily totals as an existing installation gets them: the migration, run again (down, then up with its backfill).
  started = performance.now();
  const runner = dataSource.createQueryRunner();
  const migration = dataSource.migrations.find((m) => m.name === 'CreateAnalyticsRollups1764002500000');
  if (!migration?.down) throw new Error('migration CreateAnalyticsRollups1764002500000 not registered');
  await migration.down(runner);
  await migration.up(runner);
  await runner.release();
  await dataSource.query(`VACUUM ANALYZE payments`);
  await dataSource.query(`VACUUM ANALYZE analytics_daily_totals`);
  const [{ rows }] = (await dataSource.query(`SELECT count(*)::int AS rows FROM analytics_daily_totals WHERE developer_id = $1`, [ctx.developerId])) as Array<{ rows: number }>;
  log(`backfill (index on payments included) and ANALYZE: ${seconds(started)} s; ${rows.toLocaleString()} daily-total rows`);

  return ctx;
}

/** The same 90-day figures straight from payments and refunds (what the daily totals save). */
async function directSummary(dataSource: DataSource, ctx: DeveloperContext, from: string, to: string): Promise<Array<Record<string, string | number>>> {
  const rows: Array<Record<string, string | number>> = await dataSource.query(
    `WITH bounds AS (SELECT ($3::date)::timestamp AT TIME ZONE 'UTC' AS lo, ($4::date + 1)::timestamp AT TIME ZONE 'UTC' AS hi),
     p AS (SELECT currency, count(*) FILTER (WHERE status = 'success' AND paid_at >= lo AND paid_at < hi)::int AS succeeded,
                  count(*) FILTER (WHERE status = 'failed' AND updated_at >= lo AND updated_at < hi)::int AS failed,
                  count(*) FILTER (WHERE status = 'abandoned' AND updated_at >= lo AND updated_at < hi)::int AS abandoned,
                  COALESCE(sum(amount) FILTER (WHERE status = 'success' AND paid_at >= lo AND paid_at < hi), 0)::numeric(20,2)::text AS volume,
                  COALESCE(sum(platform_fee + provider_fee) FILTER (WHERE status = 'success' AND paid_at >= lo AND paid_at < hi), 0)::numeric(20,2)::text AS fees
             FROM payments, bounds WHERE developer_id = $1 AND mode = $2 GROUP BY currency),
     r AS (SELECT currency, COALESCE(sum(amount), 0)::numeric(20,2)::text AS refunds FROM refunds, bounds
            WHERE developer_id = $1 AND mode = $2 AND status = 'processed' AND processed_at >= lo AND processed_at < hi GROUP BY currency)
     SELECT p.currency, p.succeeded, p.failed, p.abandoned, p.volume, p.fees, COALESCE(r.refunds, '0.00') AS refunds FROM p LEFT JOIN r USING (currency) ORDER BY p.currency`,
    [ctx.developerId, ctx.mode, from, to],
  );
  return rows;
}

async function measure(label: string, run: () => Promise<unknown>, runs = RUNS): Promise<{ label: string; runs: number; p50: number; p95: number; cpuMs: number }> {
  await run(); // warm-up: plans and the buffer cache
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  // This process's own CPU per run (mapping, arithmetic): on a busy machine the wall time also holds the waits for a core.
  const cpuMs = (used.user + used.system) / 1000 / runs;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
  log(`${label}: p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, ${cpuMs.toFixed(1)} ms CPU in this process per run`);
  return { label, runs, p50: at(0.5), p95: at(0.95), cpuMs };
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}

function log(message: string): void {
  console.log(`[bench:analytics] ${message}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
