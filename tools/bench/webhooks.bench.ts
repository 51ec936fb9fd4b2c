import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import type { CustomerResponse } from '@gateway/contracts';
import { createApiApp } from '@gateway/api';
import { DevelopersService } from '@gateway/domain/developers';
import { EventsService, WebhooksService } from '@gateway/domain/webhooks';
import { type DeveloperContext, inTransaction, loadConfig } from '@gateway/platform';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { DataSource } from 'typeorm';
import { cpuMs, type SchedulerChild, startScheduler } from './bench-processes';

/**
 * Webhook delivery: throughput and commit-to-delivery latency. See docs/benchmarks.md ("Webhooks").
 *
 * - this process: a fresh migrated database, a receiver on 127.0.0.1 (answers 200 at once and
 *   notes when each event id arrives), and the emitter: `EventsService.emit` inside a transaction,
 *   as business code does (the API app's services, no HTTP);
 * - the real scheduler app (`apps/scheduler/src/main.ts`) in a child process: its webhook worker
 *   claims the due deliveries and sends them.
 *
 * Paced: RATE events a second for PACED_SECONDS, each in its own transaction, on a fixed schedule
 * (not waiting for deliveries); latency = arrival at the receiver − the emitting transaction's
 * COMMIT returning. Backlog: BACKLOG_EVENTS events committed by ONE transaction, so the scheduler
 * has them all at once; deliveries/s = events ÷ (last arrival − commit). CPU: the scheduler's
 * user + system time per delivery (/proc), and that of the database's backends serving this
 * database (paced: the emitter's included; backlog: from the commit on), which on a shared
 * machine are steadier than the rates.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:webhooks
 */
const BACKLOG_EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const PACED_SECONDS = Number(process.env.BENCH_PACED_SECONDS ?? 10);
const WARM_UP_EVENTS = 20;

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
    /** `count` events in one transaction; resolves with their ids and the time COMMIT returned. */
    const emit = async (first: number, count = 1): Promise<{ ids: string[]; committedAt: number }> => {
      const ids = await inTransaction(dataSource, async (m) => {
        const emitted: string[] = [];
        for (let i = first; i < first + count; i++) emitted.push(await events.emit(m, ctx, 'customer.created', customerData(i)));
        return emitted;
      });
      return { ids, committedAt: performance.now() };
    };
    let delivered = 0;
    /** Waits until every delivery so far is recorded delivered, `count` more than before. */
    const settle = async (count: number) => {
      delivered += count;
      return waitForDeliveredRows(dataSource, delivered);
    };

    log('starting the scheduler (child process)…');
    // BENCH_CPU_PROF=<dir>: the scheduler writes a --cpu-prof profile there when it stops.
    scheduler = await startScheduler(env, process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []);
    const child = scheduler.child;
    const database = new BackendCpu(dataSource);

    log(`warm-up: ${WARM_UP_EVENTS} events one at a time…`);
    for (let i = 0; i < WARM_UP_EVENTS; i++) {
      const { ids } = await emit(i);
      await receiver.arrival(ids[0]);
    }
    await settle(WARM_UP_EVENTS);

    const pacedEvents = RATE * PACED_SECONDS;
    log(`paced: ${pacedEvents} events at ${RATE}/s…`);
    let cpuBefore = cpuMs(child);
    await database.start();
    const latencies = await paced(pacedEvents, RATE, async (i) => {
      const { ids, committedAt } = await emit(1000 + i);
      return (await receiver.arrival(ids[0])) - committedAt;
    });
    await settle(pacedEvents);
    const pacedCpuMs = cpuMs(child) - cpuBefore;
    const pacedDatabaseCpuMs = await database.stop();

    log(`backlog: ${BACKLOG_EVENTS} events committed at once…`);
    receiver.reset();
    cpuBefore = cpuMs(child);
    const { committedAt } = await emit(100_000, BACKLOG_EVENTS);
    // From the commit on: what delivering them costs, not what emitting them did.
    await database.start();
    await receiver.waitForCount(BACKLOG_EVENTS, 300_000);
    const lastArrival = Math.max(...receiver.arrivalTimes());
    const rows = await settle(BACKLOG_EVENTS);
    const recordedAt = performance.now();
    const backlogCpuMs = cpuMs(child) - cpuBefore;
    const backlogDatabaseCpuMs = await database.stop();

    const sorted = [...latencies].sort((a, b) => a - b);
    const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
    const report = {
      paced: {
        events: pacedEvents,
        rate_per_second: RATE,
        commit_to_delivery_ms: { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: round(sorted[sorted.length - 1]) },
        scheduler_cpu_ms_per_delivery: round(pacedCpuMs / pacedEvents, 3),
        database_cpu_ms_per_delivery: round(pacedDatabaseCpuMs / pacedEvents, 3),
      },
      backlog: {
        events: BACKLOG_EVENTS,
        delivery_seconds: round((lastArrival - committedAt) / 1000, 2),
        deliveries_per_second: Math.round(BACKLOG_EVENTS / ((lastArrival - committedAt) / 1000)),
        recorded_per_second: Math.round(BACKLOG_EVENTS / ((recordedAt - committedAt) / 1000)),
        scheduler_cpu_ms_per_delivery: round(backlogCpuMs / BACKLOG_EVENTS, 3),
        database_cpu_ms_per_delivery: round(backlogDatabaseCpuMs / BACKLOG_EVENTS, 3),
      },
      duplicate_arrivals: receiver.duplicates,
      rows_delivered: rows,
      rows_expected: delivered,
      load_average: loadavg().map((l) => round(l)),
    };
    console.log(JSON.stringify(report, null, 2));
    console.log(
      `\nWebhooks: backlog ${report.backlog.deliveries_per_second} deliveries/s (${report.backlog.scheduler_cpu_ms_per_delivery} ms scheduler CPU + ${report.backlog.database_cpu_ms_per_delivery} ms database CPU per delivery); ` +
        `at ${RATE} events/s commit-to-delivery p50 ${report.paced.commit_to_delivery_ms.p50} ms, p99 ${report.paced.commit_to_delivery_ms.p99} ms`,
    );
    if (rows < delivered || receiver.duplicates > 0) throw new Error(`${delivered - rows} deliveries not recorded delivered, ${receiver.duplicates} duplicate arrivals`);
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

/**
 * Starts `count` tasks on a fixed schedule of `rate` a second (task i at i ÷ rate s, however long
 * the earlier ones take), and answers their results in order.
 */
async function paced(count: number, rate: number, task: (i: number) => Promise<number>): Promise<number[]> {
  const started = performance.now();
  const running: Array<Promise<number>> = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    running.push(task(i));
  }
  return Promise.all(running);
}

/**
 * CPU time of the PostgreSQL backends serving the benchmark's database, from /proc: those alive at
 * `start` count from then, those started since count whole. A backend that exits in between is
 * missed (pools keep theirs for the run).
 */
class BackendCpu {
  private before = new Map<number, number>();

  constructor(private readonly dataSource: DataSource) {}

  async start(): Promise<void> {
    this.before = new Map((await this.backends()).map((pid) => [pid, processCpuMs(pid)]));
  }

  async stop(): Promise<number> {
    let total = 0;
    for (const pid of await this.backends()) total += processCpuMs(pid) - (this.before.get(pid) ?? 0);
    return total;
  }

  private async backends(): Promise<number[]> {
    const rows = (await this.dataSource.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)) as Array<{ pid: number }>;
    return rows.map((row) => row.pid);
  }
}

/** user + system CPU of a process in ms (0 once it is gone). */
function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
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
    await sleep(20);
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
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
