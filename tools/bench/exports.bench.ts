import 'reflect-metadata';
import { Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CustomersModule, CustomersService } from '@gateway/domain/customers';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { ExportRunner, ExportsModule, ExportsService } from '@gateway/domain/exports';
import { type AppConfig, Clock, ConfigModule, dataSourceOptions, loadConfig, SystemClock } from '@gateway/platform';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/**
 * Exports: the time and peak memory of a CSV export of 1,000,000 payments (and, for comparison, of
 * 100,000: memory must not grow with the row count). Each export runs through the code the
 * scheduler's job-queue task runs (ExportsService.create queues it, ExportRunner.run writes it:
 * keyset pages of the payments list → csv-stringify → local file), in this process, while the
 * process's RSS and heap are sampled every 50 ms. See docs/benchmarks.md ("Exports").
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:exports
 *
 * BENCH_ROWS (default 1000000) sets the large export's size.
 */
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SMALL = Math.min(100_000, ROWS);
const SAMPLE_EVERY_MS = 50;

@Global()
@Module({ providers: [{ provide: Clock, useValue: new SystemClock() }], exports: [Clock] })
class ClockModule {}

function benchModule(config: AppConfig, databaseUrl: string) {
  @Module({
    imports: [ConfigModule.forRoot(config), ClockModule, TypeOrmModule.forRoot({ ...dataSourceOptions(databaseUrl, { size: 5 }), autoLoadEntities: true }), ExportsModule, DevelopersModule, CustomersModule],
  })
  class ExportsBenchModule {}
  return ExportsBenchModule;
}

interface Sample {
  atMs: number;
  rss: number;
  heapUsed: number;
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server the benchmark may create a database on.');
  const databaseUrl = await createTestDatabase('bench_exports', serverUrl);
  const exportsDir = await mkdtemp(join(tmpdir(), 'bench-exports-'));
  const config = loadConfig({ NODE_ENV: 'production', DATABASE_URL: databaseUrl, ENCRYPTION_KEYS: `bench:${Buffer.alloc(32, 7).toString('base64')}`, EXPORTS_DIR: exportsDir, LOG_LEVEL: 'warn', PROVIDER_TEST_SECRET_KEY: 'sk_bench_test', PROVIDER_LIVE_SECRET_KEY: 'sk_bench_live' });
  const app = await NestFactory.createApplicationContext(benchModule(config, databaseUrl), { logger: ['warn', 'error'] });
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const developer = await app.get(DevelopersService).create({ email: `bench-${randomBytes(4).toString('hex')}@example.com`, name: 'Bench', emailVerified: true });
    const ctx = { developerId: developer.id, mode: 'test' as const };
    const customer = await app.get(CustomersService).create(ctx, { email: 'buyer@example.com', name: 'Bench Buyer' });
    log(`seeding ${ROWS.toLocaleString('en-US')} payments…`);
    const seedStart = Date.now();
    await db.query(
      `INSERT INTO payments (developer_id, mode, reference, status, customer_id, customer_reference, email, amount, currency, callback_url, metadata, gateway_response, channel, created_at, updated_at)
       SELECT $1, 'test', 'PAY_bench_' || lpad(g::text, 8, '0'), (ARRAY['pending', 'failed', 'abandoned'])[1 + g % 3], $2, $3, 'buyer@example.com',
              ((g::bigint * 7919) % 99999999 + 1)::numeric / 100, 'NGN', 'https://shop.example.com/done?o=' || g,
              jsonb_build_object('order', 'ORD-' || g), 'Declined', 'card', now() - make_interval(secs => g), now()
         FROM generate_series(1, $4::int) AS g`,
      [developer.id, customer.id, customer.reference, ROWS],
    );
    await db.query('ANALYZE payments');
    log(`seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);

    const from = new Date(Date.now() - 366 * 86_400_000 + 3_600_000).toISOString();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    const results = [];
    for (const rows of [...new Set([SMALL, ROWS])]) {
      // The SMALL export covers the newest SMALL payments (one per second).
      const [{ oldest }] = (await db.query(`SELECT created_at AS oldest FROM payments ORDER BY created_at DESC OFFSET $1 - 1 LIMIT 1`, [rows])).rows as Array<{ oldest: Date }>;
      const since = rows === ROWS ? from : oldest.toISOString();
      results.push(await measure(app, ctx, rows, { type: 'payments', from: since, to }, db));
    }
    log('');
    log('| Rows | Time | Rows/s | File size | Peak RSS | RSS before | Peak heap used |');
    log('|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of results) {
      log(
        `| ${r.rows.toLocaleString('en-US')} | ${r.seconds.toFixed(1)} s | ${Math.round(r.rows / r.seconds).toLocaleString('en-US')} | ${mib(r.fileSize)} MiB | ${mib(r.peakRss)} MiB | ${mib(r.rssBefore)} MiB | ${mib(r.peakHeap)} MiB |`,
      );
    }
    const large = results[results.length - 1];
    log('');
    log(`RSS over the ${large.rows.toLocaleString('en-US')}-row export (tenths of its run): ${large.timeline.map((s) => mib(s.rss)).join(', ')} MiB`);
    log(`heap used over the same: ${large.timeline.map((s) => mib(s.heapUsed)).join(', ')} MiB`);
  } finally {
    await db.end();
    await app.close();
    await rm(exportsDir, { recursive: true, force: true });
    await dropTestDatabase(databaseUrl, serverUrl);
  }
}

async function measure(
  app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>,
  ctx: { developerId: string; mode: 'test' },
  expected: number,
  request: { type: 'payments'; from: string; to: string },
  db: Client,
) {
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const exported = await app.get(ExportsService).create(ctx, request, { kind: 'key', keyId: 'bench' });
  const samples: Sample[] = [];
  const started = Date.now();
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    samples.push({ atMs: Date.now() - started, rss: m.rss, heapUsed: m.heapUsed });
  }, SAMPLE_EVERY_MS);
  // What the job-queue task runs for this export (see the scheduler's JobQueueWorker).
  await app.get(ExportRunner).run(exported.id, true);
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  const [row] = (await db.query(`SELECT status, rows_done::int AS rows, file_size::bigint AS size, error FROM exports WHERE id = $1`, [exported.id])).rows;
  if (row.status !== 'completed' || row.rows !== expected) throw new Error(`export ended ${row.status} with ${row.rows} rows (${row.error ?? 'no error'}), expected ${expected}`);
  const tenth = Math.max(1, Math.floor(samples.length / 10));
  log(`${expected.toLocaleString('en-US')} rows: ${seconds.toFixed(1)} s, ${mib(Number(row.size))} MiB`);
  return {
    rows: expected,
    seconds,
    fileSize: Number(row.size),
    rssBefore,
    peakRss: Math.max(...samples.map((s) => s.rss)),
    peakHeap: Math.max(...samples.map((s) => s.heapUsed)),
    timeline: samples.filter((_, i) => i % tenth === 0).slice(0, 10),
  };
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
