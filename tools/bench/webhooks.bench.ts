import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CustomerResponse } from '@gateway/contracts';
import { createApiApp } from '@gateway/api';
import { DevelopersService } from '@gateway/domain/developers';
import { EventsService, WebhooksService } from '@gateway/domain/webhooks';
import { type DeveloperContext, inTransaction, loadConfig } from '@gateway/platform';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { DataSource } from 'typeorm';
import { type SchedulerChild, startScheduler } from './bench-processes';

/**
 * Webhook delivery: throughput and commit-to-delivery latency. See docs/benchmarks.md ("Webhooks").
 *
 * - this process: a fresh migrated database, a receiver on 127.0.0.1 (answers 200 at once and
 *   notes when each event id arrives), and the emitter: `EventsService.emit` inside a transaction,
 *   as business code does (the API app's services, no HTTP);
 * - the real scheduler app (`apps/scheduler/src/main.ts`) in a child process: the graphile-worker
 *   that sends the deliveries.
 *
 * Light load: LIGHT_EVENTS events one at a time (the next after the previous arrived), latency =
 * arrival at the receiver − the emitting transaction's COMMIT returning. Burst: BURST_EVENTS
 * events emitted by EMITTERS concurrent transactions; deliveries/s = events ÷ (last arrival −
 * first commit).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:webhooks
 */
const BURST_EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const LIGHT_EVENTS = Number(process.env.BENCH_LIGHT_EVENTS ?? 50);
const EMITTERS = Number(process.env.BENCH_EMITTERS ?? 8);
const WARM_UP_EVENTS = 10;

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server the benchmark may create a database on.');
  const databaseUrl = await createTestDatabase('bench_webhooks', serverUrl);
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`,
    LOG_LEVEL: 'warn',
  };
  const receiver = new ArrivalReceiver();
  const receiverUrl = await receiver.start();
  const app = await createApiApp({ config: loadConfig(env), databaseUrl, logger: false });
  let scheduler: SchedulerChild | undefined;
  try {
    const developer = await app.get(DevelopersService, { strict: false }).create({ email: 'bench-webhooks@example.com', name: 'Bench', emailVerified: true });
    const ctx: DeveloperContext = { developerId: developer.id, mode: 'test' };
    await app.get(WebhooksService, { strict: false }).create(ctx, { url: receiverUrl, events: ['customer.created'], webhookVersion: 'v1' });
    const events = app.get(EventsService, { strict: false });
    const dataSource = app.get(DataSource);
    /** One event in its own transaction; resolves with the time COMMIT returned. */
    const emit = async (i: number): Promise<{ id: string; committedAt: number }> => {
      const id = await inTransaction(dataSource, (m) => events.emit(m, ctx, 'customer.created', customerData(i)));
      return { id, committedAt: performance.now() };
    };

    log('starting the scheduler (child process)…');
    scheduler = await startScheduler(env);

    log(`light load: ${WARM_UP_EVENTS} warm-up events, then ${LIGHT_EVENTS} one at a time…`);
    const latencies: number[] = [];
    for (let i = 0; i < WARM_UP_EVENTS + LIGHT_EVENTS; i++) {
      const { id, committedAt } = await emit(i);
      const arrivedAt = await receiver.arrival(id);
      if (i >= WARM_UP_EVENTS) latencies.push(arrivedAt - committedAt);
      await sleep(20);
    }

    log(`burst: ${BURST_EVENTS} events from ${EMITTERS} concurrent emitters…`);
    receiver.reset();
    const commits: number[] = [];
    let next = 0;
    const emitter = async () => {
      while (next < BURST_EVENTS) {
        const i = next++;
        commits.push((await emit(100_000 + i)).committedAt);
      }
    };
    const burstStarted = performance.now();
    await Promise.all(Array.from({ length: EMITTERS }, emitter));
    const emittedAt = performance.now();
    await receiver.waitForCount(BURST_EVENTS, 300_000);
    const firstCommit = Math.min(...commits);
    const lastArrival = Math.max(...receiver.arrivalTimes());
    const delivered = await waitForDeliveredRows(dataSource, WARM_UP_EVENTS + LIGHT_EVENTS + BURST_EVENTS);

    const sorted = [...latencies].sort((a, b) => a - b);
    const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
    const report = {
      light_load_events: LIGHT_EVENTS,
      commit_to_delivery_ms: { p50: at(0.5), p95: at(0.95), max: round(sorted[sorted.length - 1]) },
      burst_events: BURST_EVENTS,
      burst_emitters: EMITTERS,
      burst_emit_seconds: round((emittedAt - burstStarted) / 1000),
      burst_delivery_seconds: round((lastArrival - firstCommit) / 1000),
      deliveries_per_second: Math.round(BURST_EVENTS / ((lastArrival - firstCommit) / 1000)),
      duplicate_arrivals: receiver.duplicates,
      rows_delivered: delivered,
    };
    console.log(JSON.stringify(report, null, 2));
    console.log(
      `\nWebhooks: ${report.deliveries_per_second} deliveries/s for ${BURST_EVENTS} events; commit-to-delivery at light load p50 ${report.commit_to_delivery_ms.p50} ms, p95 ${report.commit_to_delivery_ms.p95} ms (target p50 < 250 ms: ${report.commit_to_delivery_ms.p50 < 250 ? 'met' : 'MISSED'})`,
    );
  } catch (error) {
    if (scheduler) process.stderr.write(`scheduler output:\n${scheduler.output()}\n`);
    throw error;
  } finally {
    await scheduler?.stop();
    await app.close();
    await receiver.close();
    await dropTestDatabase(databaseUrl, serverUrl);
  }
}

/** A customer.created object as the API renders it (toCustomerResponse). */
function customerData(i: number): CustomerResponse {
  return {
    reference: `CUS_bench${String(i).padStart(8, '0')}`,
    email: `buyer-${i}@example.com`,
    name: 'Bench Buyer',
    phone: null,
    metadata: { order: i },
    created_at: new Date().toISOString(),
  };
}

/** Waits until the scheduler has recorded every delivery as delivered (its bookkeeping trails the POST). */
async function waitForDeliveredRows(dataSource: DataSource, expected: number): Promise<number> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [{ count }] = (await dataSource.query(`SELECT count(*)::int AS count FROM webhook_deliveries WHERE status = 'delivered'`)) as Array<{ count: number }>;
    if (count >= expected || Date.now() > deadline) return count;
    await sleep(200);
  }
}

/** The merchant's receiver: 200 at once, the arrival time of each event id (first arrival). */
class ArrivalReceiver {
  duplicates = 0;
  private arrivals = new Map<string, number>();
  private waiters = new Map<string, (at: number) => void>();
  private countWaiter?: { count: number; resolve: () => void };
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const arrivedAt = performance.now();
      const id = String(req.headers['x-gateway-event-id']);
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
      if (this.arrivals.has(id)) return void this.duplicates++;
      this.arrivals.set(id, arrivedAt);
      this.waiters.get(id)?.(arrivedAt);
      if (this.countWaiter && this.arrivals.size >= this.countWaiter.count) this.countWaiter.resolve();
    });
    await new Promise<void>((done) => this.server?.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
  }

  arrival(id: string, timeoutMs = 30_000): Promise<number> {
    const known = this.arrivals.get(id);
    if (known !== undefined) return Promise.resolve(known);
    return new Promise((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`event ${id} not delivered within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.set(id, (at) => (clearTimeout(timer), this.waiters.delete(id), done(at)));
    });
  }

  waitForCount(count: number, timeoutMs: number): Promise<void> {
    if (this.arrivals.size >= count) return Promise.resolve();
    return new Promise((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`${this.arrivals.size} of ${count} events delivered within ${timeoutMs} ms`)), timeoutMs);
      this.countWaiter = { count, resolve: () => (clearTimeout(timer), done()) };
    });
  }

  arrivalTimes(): number[] {
    return [...this.arrivals.values()];
  }

  reset(): void {
    this.arrivals.clear();
    this.duplicates = 0;
  }

  close(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number) => Math.round(n * 10) / 10;
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
