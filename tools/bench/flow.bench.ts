import 'reflect-metadata';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { Client } from 'pg';
import {
  BUILT_API_MAIN,
  cpuMs,
  freePort,
  machineCpuMs,
  measureRotating,
  type MeasuredRun,
  peakRssMiB,
  PRODUCTION_HEAP_FLAGS,
  ROOT,
  rssMiB,
  SERVE_API,
  startChild,
  startScheduler,
  stopChild,
  waitUntilReady,
} from './bench-processes';
import { benchGatewayEnv, benchSecrets, rateLimitStore } from './bench-support';
import type { BenchRequest } from './baseline/rotating-load';
import { createWallets, type Merchant, type PreparedPayment, preparePayments, provisionMerchants } from './payments-fixtures';
import { type PostgresRecording, printPgProfile, readPostgresProfile, recordPostgres } from './pg-profile';

/**
 * The whole payment flow under load, as merchants' servers and their customers' browsers drive it:
 * initialize (the merchant's server) → the customer opens the payment link (the gateway's
 * /checkout/{reference}, a 302 to the provider) → the provider's hosted checkout page → the
 * customer pays there (the form's POST, a 303 back to the merchant's callback URL) → verify (the
 * merchant's server). Meanwhile the provider's signed charge.success callback reaches the API
 * and the scheduler delivers payment.success (and customer.created) to each merchant's endpoint.
 * Then, in the same run, the bare baselines: a plain Fastify + pg server running initialize's and
 * verify's SQL (tools/bench/baseline). See docs/benchmarks.md ("Full payment flow").
 *
 * Processes (nothing pinned; everything shares the machine's cores):
 * - the API (`serve-api.ts`), the provider simulator (`apps/provider-sim/src/main.ts`) and the
 *   scheduler (`apps/scheduler/src/main.ts`), each a child process, as in production;
 * - this process: orchestration, the BENCH_CLIENTS clients (node:http, keep-alive, each flow's
 *   requests one after the other) and the merchants' webhook receiver;
 * - then the bare server (after the others stopped), autocannon in its own process, and PostgreSQL.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:flow
 *   BENCH_SECONDS=10 npm run bench:flow -- --clients 16     (settings: environment or --name value)
 */
const SETTINGS = settings({
  clients: 32,
  merchants: 16,
  seconds: 30,
  warmUpSeconds: 5,
  /** Distinct customers per merchant: after the first flows most customers are returning ones. */
  customersPerMerchant: 10,
  /** 0: the simulator sends no charge.success callback (verify alone credits). */
  callbacks: 1,
  bareSeconds: 10,
  barePool: 40_000,
  /**
   * 1: ANALYZE the database a second before the measured window, so the plans measured are those
   * of a live database's statistics (0: keep the empty tables' statistics; see analyzeBeforeMeasuring).
   */
  analyzeAfterWarmUp: 1,
  /**
   * Seconds of PostgreSQL's CPU to sample with Linux perf, from 5 s into the measured window
   * (pg-profile.ts; 0: none): its time by activity, printed after the report. The sampling slows
   * the run, so its flows/s are not the build's.
   */
  pgProfileSeconds: 0,
});
/** A directory: the API, the simulator and the scheduler write V8 CPU profiles there (`--cpu-prof`) when they stop, `api-…`, `simulator-…`, `scheduler-…`. */
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF;
/**
 * SQL run on the run's database once its merchants are provisioned, before anything is measured:
 * to measure what a part of the schema costs a flow (dropping an index or a constraint for one run).
 */
const SETUP_SQL = process.env.BENCH_SETUP_SQL;
/** BENCH_KEEP_DATABASE=1: the run's database is left in place, to study its plans and tables afterwards (drop it by hand). */
const KEEP_DATABASE = process.env.BENCH_KEEP_DATABASE === '1';
const cpuProfileFlags = (name: string) => (CPU_PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROFILE_DIR, '--cpu-prof-name', `${name}-${Date.now()}.cpuprofile`] : []);
/**
 * `built`: the API as production runs it, compiled (`npx nx run api:build`, its main in dist/), not
 * the sources under the TypeScript loader, whose compiler and caches add ~100 MiB to the RSS.
 */
const BUILT_API = process.env.BENCH_API === 'built';
const AMOUNT = 5000;
const CARD = '4084084084084081';
const CALLBACK_URL = 'https://merchant.example/payments/return';

type Step = 'initialize' | 'open link' | 'checkout page' | 'pay' | 'verify';
const STEPS: Step[] = ['initialize', 'open link', 'checkout page', 'pay', 'verify'];
const SERVED_BY: Record<Step, string> = { initialize: 'API', 'open link': 'API', 'checkout page': 'simulator', pay: 'simulator', verify: 'API' };

interface FlowResults {
  flows: number;
  seconds: number;
  errors: Map<string, number>;
  steps: Record<Step, number[]>;
  total: number[];
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server the benchmark may create a database on.');
  const loadBefore = loadavg();
  const databaseUrl = await createTestDatabase('bench_flow', serverUrl);
  const secrets = benchSecrets();
  const apiPort = await freePort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const children: ChildProcess[] = [];
  const receiver = new CountingReceiver();
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    log('starting the provider simulator (child process)…');
    const sim = await startChild(
      children,
      [],
      {
        PORT: '0',
        SIM_SECRET_KEYS: `${secrets.test},${secrets.live}`,
        // Sent as the payments happen, several at once, as the provider does: one at a time (the
        // simulator's default, for tests) they fell behind the load and most arrived after it.
        ...(SETTINGS.callbacks ? { SIM_WEBHOOK_URL: `${apiUrl}/api/provider/webhooks`, SIM_CALLBACK_CONCURRENCY: String(SETTINGS.clients) } : {}),
      },
      'apps/provider-sim/src/main.ts',
      cpuProfileFlags('simulator'),
      /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    );
    const env = {
      ...benchGatewayEnv(databaseUrl, `http://127.0.0.1:${sim.port}`, secrets),
      PUBLIC_BASE_URL: apiUrl,
      // The merchants' endpoints are on this machine (test mode).
      WEBHOOK_ALLOW_PRIVATE_TARGETS_IN_TEST_MODE: 'true',
      LOG_LEVEL: 'warn',
    };

    log(`provisioning ${SETTINGS.merchants} merchants…`);
    const merchants = await provisionMerchants(env, SETTINGS.merchants, ['payments:read', 'payments:write', 'webhooks:manage']);
    await createWallets(db, merchants);
    const barePayments = await preparePayments(db, 'BRS', merchants, SETTINGS.barePool);
    if (SETUP_SQL) await db.query(SETUP_SQL);
    await db.query('VACUUM ANALYZE');

    log('starting the API and the scheduler (child processes)…');
    // BENCH_API_NODE_OPTIONS: more flags for the API's node (e.g. --trace-gc, --heapsnapshot-signal=SIGUSR2),
    // after the production heap flags: `--max-old-space-size=4096` measures Node's defaults.
    const profiling = [...cpuProfileFlags('api'), ...(process.env.BENCH_API_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [])];
    const api = BUILT_API
      ? await startBuiltApi(children, { ...env, API_HOST: '127.0.0.1', API_PORT: String(apiPort) }, apiUrl, profiling)
      : await startChild(children, [], { ...env, BENCH_LISTEN_PORT: String(apiPort) }, SERVE_API, profiling);
    const apiReadyRss = rssMiB(api.child);
    const scheduler = await startScheduler(env, cpuProfileFlags('scheduler'));
    children.push(scheduler.child);
    const hooksUrl = await receiver.start();
    const client = new HttpClient();
    for (const m of merchants) {
      const created = await client.send('POST', `${apiUrl}/api/v1/webhooks`, { authorization: `Bearer ${m.key}` }, { url: hooksUrl, events: ['payment.success', 'customer.created'], webhook_version: 'v1' });
      if (created.status !== 201) throw new Error(`webhook endpoint: ${created.status} ${created.body}`);
    }

    log(`${SETTINGS.clients} clients: ${SETTINGS.warmUpSeconds} s warm-up, then ${SETTINGS.seconds} s measured…`);
    const measureFrom = Date.now() + SETTINGS.warmUpSeconds * 1000;
    const stopAt = measureFrom + SETTINGS.seconds * 1000;
    let cpuAtStart = { api: 0, sim: 0, scheduler: 0, machine: machineCpuMs(), bench: process.cpuUsage() };
    const simUrl = `http://127.0.0.1:${sim.port}`;
    let callbacksAtStart = callbackCounts(simUrl, secrets.test);
    const pgRecording = SETTINGS.pgProfileSeconds ? recordPostgresInWindow(measureFrom).catch((error: Error) => error) : null;
    const analyzed = SETTINGS.analyzeAfterWarmUp ? analyzeBeforeMeasuring(db, measureFrom) : Promise.resolve(null);
    analyzed.catch(() => undefined); // awaited after the flows: a failure is thrown there, with the clean-up
    const startCpu = setTimeout(() => {
      cpuAtStart = { api: cpuMs(api.child), sim: cpuMs(sim.child), scheduler: cpuMs(scheduler.child), machine: machineCpuMs(), bench: process.cpuUsage() };
      callbacksAtStart = callbackCounts(simUrl, secrets.test);
    }, measureFrom - Date.now());
    const results = await runFlows(client, apiUrl, merchants, measureFrom, stopAt);
    clearTimeout(startCpu);
    const statistics = await analyzed;
    const [before, after] = [await callbacksAtStart, await callbackCounts(simUrl, secrets.test)];
    const callbacks = { delivered: after.delivered - before.delivered, failed: after.failed - before.failed, pending: after.pending };
    const apiCpu = cpuMs(api.child) - cpuAtStart.api;
    const simCpu = cpuMs(sim.child) - cpuAtStart.sim;
    // The same window for every process on the machine (the scheduler's figure runs on until its deliveries are done).
    const machineNow = machineCpuMs();
    const benchUsage = process.cpuUsage(cpuAtStart.bench);
    const machine = {
      busy: machineNow.busy - cpuAtStart.machine.busy,
      postgres: machineNow.postgres - cpuAtStart.machine.postgres,
      redis: machineNow.redis - cpuAtStart.machine.redis,
      bench: (benchUsage.user + benchUsage.system) / 1000,
      schedulerInWindow: cpuMs(scheduler.child) - cpuAtStart.scheduler,
    };
    log('waiting for the scheduler to deliver every webhook…');
    const deliveries = await drainDeliveries(db);
    const schedulerCpu = cpuMs(scheduler.child) - cpuAtStart.scheduler;
    const memory = { apiReady: apiReadyRss, api: peakRssMiB(api.child), sim: peakRssMiB(sim.child), scheduler: peakRssMiB(scheduler.child) };
    const ledger = (await db.query('SELECT violation, subject, detail FROM ledger_invariant_violations LIMIT 5')).rows;
    client.close();
    await scheduler.stop();
    await stopChild(api.child);
    await stopChild(sim.child);

    // A baseline that fails (its SQL or server out of step with the schema) is reported as such; the flow's figures still stand.
    const bare = await runBareBaselines(children, databaseUrl, merchants, barePayments).catch((error: Error) => [{ label: 'bare initialize and verify', failed: error.message }]);

    report({ results, apiCpu, simCpu, schedulerCpu, machine, memory, deliveries, callbacks, bare, ledger, statistics, loadBefore, loadAfter: loadavg() });
    const recording = await pgRecording;
    if (recording instanceof Error) log(`PostgreSQL could not be profiled: ${recording.message}`);
    else if (recording) printPgProfile(await readPostgresProfile(recording));
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await receiver.close();
    await db.end().catch(() => undefined);
    if (KEEP_DATABASE) log(`kept the database: ${databaseUrl}`);
    else await dropTestDatabase(databaseUrl, serverUrl);
  }
}

/** pgProfileSeconds of PostgreSQL's CPU (at most to the window's end), from 5 s into the measured window. */
async function recordPostgresInWindow(measureFrom: number): Promise<PostgresRecording> {
  const startAt = measureFrom + 5000;
  await new Promise((done) => setTimeout(done, Math.max(0, startAt - Date.now())));
  return recordPostgres(Math.max(1, Math.min(SETTINGS.pgProfileSeconds, SETTINGS.seconds - 5)));
}

interface AnalyzeRun {
  /** The server's autovacuum setting: 'off' on a machine that keeps its statistics frozen. */
  autovacuum: string;
  ms: number;
  /** Whether ANALYZE finished before the measured window began. */
  beforeWindow: boolean;
}

/**
 * ANALYZE, a second before the measured window. The database starts empty: without it, every
 * plan is made on empty tables' statistics, among them the foreign-key checks' (planned once per
 * connection), which then read a whole table for every row they check (ledger_postings,
 * payment_authorizations). On a live database the statistics are of tables with many rows:
 * autovacuum (on by default, in the embedded server and the docker image alike) analyzes a table
 * as it grows, and plans made before are replanned. This machine's PostgreSQL runs with
 * autovacuum off, so the bench does once, after the warm-up's rows are in, what autovacuum does
 * as tables grow.
 */
async function analyzeBeforeMeasuring(db: Client, measureFrom: number): Promise<AnalyzeRun> {
  await new Promise((done) => setTimeout(done, Math.max(0, measureFrom - 1000 - Date.now())));
  const started = performance.now();
  await db.query('ANALYZE');
  const ms = performance.now() - started;
  const { rows } = await db.query<{ autovacuum: string }>('SHOW autovacuum');
  return { autovacuum: rows[0].autovacuum, ms, beforeWindow: Date.now() <= measureFrom };
}

/** The bare Fastify + pg server (tools/bench/baseline) under autocannon: initialize's and verify's SQL alone. */
async function runBareBaselines(
  children: ChildProcess[],
  databaseUrl: string,
  merchants: Merchant[],
  barePayments: PreparedPayment[],
): Promise<Array<MeasuredRun | { label: string; failed: string }>> {
  log('bare Fastify + pg: starting (child process)…');
  const bare = await startChild(children, [], { DATABASE_URL: databaseUrl, POOL_SIZE: '10' }, 'tools/bench/baseline/bare-payments-server.ts');
  const bareUrl = `http://127.0.0.1:${bare.port}`;
  const bareRun = (label: string, requests: BenchRequest[], once: boolean): Promise<MeasuredRun | { label: string; failed: string }> =>
    measureRotating(bare.child, label, bareUrl, requests, { once, connections: SETTINGS.clients, seconds: SETTINGS.bareSeconds, warmUpSeconds: 3 }).catch(
      (error: Error) => ({ label, failed: error.message }),
    );
  const bareInitialize = await bareRun(
    'bare initialize',
    merchants.flatMap((m, i) =>
      Array.from({ length: SETTINGS.customersPerMerchant }, (_, c) => ({
        method: 'POST' as const,
        path: '/payments/initialize',
        headers: { 'x-developer-id': m.developerId },
        body: JSON.stringify({ amount: AMOUNT, email: customerEmail(i, c), callback_url: CALLBACK_URL }),
      })),
    ),
    false,
  );
  const bareVerify = await bareRun(
    'bare verify',
    barePayments.map((p) => ({ method: 'POST' as const, path: '/payments/verify', headers: { 'x-developer-id': p.developerId }, body: JSON.stringify({ reference: p.reference }) })),
    true,
  );
  await stopChild(bare.child);
  return [bareInitialize, bareVerify];
}

/** The compiled API's main (it also applies pending migrations: none here); ready once /ready answers 200. */
async function startBuiltApi(children: ChildProcess[], env: Record<string, string>, apiUrl: string, nodeOptions: string[]): Promise<{ child: ChildProcess }> {
  if (!existsSync(BUILT_API_MAIN)) throw new Error(`BENCH_API=built: ${BUILT_API_MAIN} is missing; run npx nx run api:build first.`);
  const child = spawn(process.execPath, [...PRODUCTION_HEAP_FLAGS, ...nodeOptions, BUILT_API_MAIN], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(child);
  await waitUntilReady(child, apiUrl, { timeoutMs: 60_000, pollMs: 100 });
  return { child };
}

const customerEmail = (merchant: number, customer: number) => `customer-${merchant}-${customer}@example.com`;

/**
 * The clients: each repeats the flow until `stopAt` (a flow begun before it is finished). Flows
 * that begin at or after `measureFrom` are measured; the ones before are the warm-up.
 */
async function runFlows(client: HttpClient, apiUrl: string, merchants: Merchant[], measureFrom: number, stopAt: number): Promise<FlowResults> {
  const results: FlowResults = { flows: 0, seconds: 0, errors: new Map(), steps: { initialize: [], 'open link': [], 'checkout page': [], pay: [], verify: [] }, total: [] };
  let lastEnd = measureFrom;
  const oneClient = async (index: number) => {
    const merchantIndex = index % merchants.length;
    const auth = { authorization: `Bearer ${merchants[merchantIndex].key}` };
    for (let n = 0; Date.now() < stopAt; n++) {
      const started = performance.now();
      const measured = Date.now() >= measureFrom;
      const times: Partial<Record<Step, number>> = {};
      const step = async <T>(name: Step, work: () => Promise<T>): Promise<T> => {
        const at = performance.now();
        const value = await work();
        times[name] = performance.now() - at;
        return value;
      };
      try {
        const email = customerEmail(merchantIndex, (index + n * merchants.length) % SETTINGS.customersPerMerchant);
        const init = await step('initialize', () => client.send('POST', `${apiUrl}/api/v1/payments/initialize`, auth, { amount: AMOUNT, email, callback_url: CALLBACK_URL }));
        expectStatus('initialize', init, 201);
        const { reference, authorization_url: link } = JSON.parse(init.body).data as { reference: string; authorization_url: string };
        const opened = await step('open link', () => client.send('GET', link));
        expectStatus('open link', opened, 302);
        const page = opened.headers.location as string;
        expectStatus('checkout page', await step('checkout page', () => client.send('GET', page)), 200);
        const paid = await step('pay', () => client.send('POST', `${page}/pay`, {}, new URLSearchParams({ card: CARD }).toString()));
        expectStatus('pay', paid, 303);
        const verified = await step('verify', () => client.send('POST', `${apiUrl}/api/v1/payments/verify`, auth, { reference }));
        expectStatus('verify', verified, 200);
        if ((JSON.parse(verified.body) as { data: { status: string } }).data.status !== 'success') throw new FlowError('verify', 'not success');
        if (!measured) continue;
        results.flows += 1;
        results.total.push(performance.now() - started);
        for (const name of STEPS) results.steps[name].push(times[name] as number);
        lastEnd = Math.max(lastEnd, Date.now());
      } catch (error) {
        const what = error instanceof FlowError ? `${error.step}: ${error.message}` : `network: ${(error as Error).message}`;
        results.errors.set(what, (results.errors.get(what) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: SETTINGS.clients }, (_, i) => oneClient(i)));
  results.seconds = (lastEnd - measureFrom) / 1000;
  return results;
}

class FlowError extends Error {
  constructor(
    readonly step: Step,
    message: string,
  ) {
    super(message);
  }
}

function expectStatus(step: Step, answer: HttpAnswer, status: number): void {
  if (answer.status !== status) throw new FlowError(step, `${answer.status} (expected ${status})`);
}

interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** node:http on keep-alive connections: the lightest client, so this process takes little of the cores. */
class HttpClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: Infinity });

  send(method: string, url: string, headers: Record<string, string> = {}, body?: unknown): Promise<HttpAnswer> {
    const target = new URL(url);
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const contentType = typeof body === 'string' ? 'application/x-www-form-urlencoded' : 'application/json';
    return new Promise((resolve, reject) => {
      const req = request(
        {
          agent: this.agent,
          host: target.hostname,
          port: target.port,
          method,
          path: target.pathname + target.search,
          headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) }) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The merchants' webhook endpoint: answers 200 at once and counts what arrives. */
class CountingReceiver {
  received = 0;
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        this.received += 1;
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((done) => this.server?.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
  }

  close(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}

/** The simulator's callbacks since it started, by status. `secret`: any of its accounts'. */
async function callbackCounts(simUrl: string, secret: string): Promise<{ pending: number; delivered: number; failed: number }> {
  const response = await fetch(`${simUrl}/sim/callbacks/counts`, { headers: { authorization: `Bearer ${secret}` } });
  if (!response.ok) throw new Error(`GET /sim/callbacks/counts: ${response.status}`);
  return ((await response.json()) as { data: { pending: number; delivered: number; failed: number } }).data;
}

/** Waits (up to 2 min) until no delivery is pending; returns how many were delivered. */
async function drainDeliveries(db: Client): Promise<{ delivered: number; pending: number }> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { rows } = await db.query<{ delivered: number; pending: number }>(
      `SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered, count(*) FILTER (WHERE status = 'pending')::int AS pending FROM webhook_deliveries`,
    );
    if (rows[0].pending === 0 || Date.now() > deadline) return rows[0];
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface Report {
  results: FlowResults;
  apiCpu: number;
  simCpu: number;
  schedulerCpu: number;
  /** CPU over the measured window of the flows: the machine's busy time, PostgreSQL's, Redis's, this process's (the clients and the webhook receiver), the scheduler's. */
  machine: { busy: number; postgres: number; redis: number; bench: number; schedulerInWindow: number };
  memory: { apiReady: number; api: number; sim: number; scheduler: number };
  deliveries: { delivered: number; pending: number };
  /** Provider callbacks the API answered 2xx over the measured window, those that failed, and those still pending at its end (few when they keep up). */
  callbacks: { delivered: number; failed: number; pending: number };
  bare: Array<MeasuredRun | { label: string; failed: string }>;
  ledger: unknown[];
  /** null: not analyzed (BENCH_ANALYZE_AFTER_WARM_UP=0). */
  statistics: AnalyzeRun | null;
  loadBefore: number[];
  loadAfter: number[];
}

function report(r: Report): void {
  const { results } = r;
  const flows = Math.max(1, results.flows);
  const perFlow = (ms: number) => (ms / flows).toFixed(2);
  const pct = (list: number[], q: number) => {
    const sorted = [...list].sort((a, b) => a - b);
    return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(2) : '–';
  };
  const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(' ');
  console.log(
    `\nFull payment flow: ${SETTINGS.clients} clients, ${SETTINGS.merchants} merchants, ${SETTINGS.seconds} s measured after ${SETTINGS.warmUpSeconds} s warm-up; ` +
      `callbacks ${SETTINGS.callbacks ? 'on' : 'off'}; API ${BUILT_API ? 'built (dist/)' : 'from the sources (TypeScript loader)'}, ${rateLimitStore()}; Node ${process.version}, ${cpus().length} cores; load average ${load(r.loadBefore)} before, ${load(r.loadAfter)} after`,
  );
  const st = r.statistics;
  console.log(
    st
      ? `Statistics: ANALYZE a second before the measured window (${st.ms.toFixed(0)} ms${st.beforeWindow ? '' : ', ending inside the window'}); autovacuum on this server: ${st.autovacuum}`
      : 'Statistics: not analyzed after the warm-up (plans made on empty tables, as on a server with autovacuum off)',
  );
  console.log('\n| measure | value |');
  console.log('|---|---|');
  console.log(`| flows completed (measured) | ${results.flows} in ${results.seconds.toFixed(1)} s |`);
  console.log(`| flows/s | ${(results.flows / Math.max(0.001, results.seconds)).toFixed(1)} |`);
  console.log(
    `| provider callbacks in the measured window: answered 2xx by the API (per flow); failed; still pending at its end | ${r.callbacks.delivered} (${(r.callbacks.delivered / Math.max(1, flows)).toFixed(2)}); ${r.callbacks.failed}; ${r.callbacks.pending} |`,
  );
  console.log(`| API CPU per flow (ms; 3 requests + the provider's callback) | ${perFlow(r.apiCpu)} |`);
  console.log(`| simulator CPU per flow (ms; page, pay, and the API's initialize and verify calls) | ${perFlow(r.simCpu)} |`);
  console.log(`| scheduler CPU per flow (ms; its webhook deliveries and scans) | ${perFlow(r.schedulerCpu)} |`);
  const m = r.machine;
  const other = m.busy - r.apiCpu - r.simCpu - m.schedulerInWindow - m.postgres - m.redis - m.bench;
  console.log(
    `| whole machine's CPU per flow over the measured window (ms; all ${cpus().length} cores) | ${perFlow(m.busy)}: API ${perFlow(r.apiCpu)}, PostgreSQL ${perFlow(m.postgres)}, Redis ${perFlow(m.redis)}, ` +
      `simulator ${perFlow(r.simCpu)}, scheduler ${perFlow(m.schedulerInWindow)}, clients and receiver ${perFlow(m.bench)}, the rest ${perFlow(other)} |`,
  );
  console.log(`| flows/s the machine could serve at that CPU per flow (${cpus().length} cores × 1,000 ms ÷ it) | ${((cpus().length * 1000) / Math.max(0.001, m.busy / flows)).toFixed(0)} |`);
  console.log(`| webhooks delivered / still pending after the run | ${r.deliveries.delivered} / ${r.deliveries.pending} |`);
  console.log(`| peak RSS (VmHWM), MiB: API / simulator / scheduler | ${r.memory.api.toFixed(0)} / ${r.memory.sim.toFixed(0)} / ${r.memory.scheduler.toFixed(0)} |`);
  console.log(`| API RSS when ready, before the load, MiB | ${r.memory.apiReady.toFixed(0)} |`);
  console.log(`| failed flows | ${[...results.errors.values()].reduce((a, b) => a + b, 0)}${results.errors.size ? ` (${[...results.errors].map(([k, v]) => `${k} ×${v}`).join('; ')})` : ''} |`);
  console.log(`| ledger invariant violations | ${r.ledger.length ? JSON.stringify(r.ledger) : 'none'} |`);

  console.log('\n| step | served by | p50 ms | p99 ms |');
  console.log('|---|---|---|---|');
  for (const name of STEPS) console.log(`| ${name} | ${SERVED_BY[name]} | ${pct(results.steps[name], 0.5)} | ${pct(results.steps[name], 0.99)} |`);
  console.log(`| whole flow | | ${pct(results.total, 0.5)} | ${pct(results.total, 0.99)} |`);

  console.log(`\nBare baselines (plain Fastify + pg, the same SQL, no provider round trip, no auth, no request log; ${SETTINGS.clients} connections, ${SETTINGS.bareSeconds} s):`);
  console.log('\n| scenario | req/s | p50 ms | p99 ms | server CPU µs/req |');
  console.log('|---|---|---|---|---|');
  for (const b of r.bare) {
    if ('failed' in b) console.log(`| ${b.label}: FAILED (${b.failed}) | – | – | – | – |`);
    else console.log(`| ${b.label}${b.exhausted ? ' (ran out of prepared payments: raise BENCH_BARE_POOL)' : ''} | ${b.rps} | ${b.p50.toFixed(2)} | ${b.p99.toFixed(2)} | ${b.cpuUsPerRequest} |`);
  }
  const measured = r.bare.filter((b): b is MeasuredRun => !('failed' in b));
  if (measured.length === r.bare.length) {
    const bareFlowMs = measured.reduce((sum, b) => sum + b.cpuUsPerRequest, 0) / 1000;
    console.log(`\nAPI CPU per flow ${perFlow(r.apiCpu)} ms against ${bareFlowMs.toFixed(2)} ms for the bare initialize + verify: ${(r.apiCpu / flows / bareFlowMs).toFixed(1)}×`);
  }
}

/** Defaults, overridden by BENCH_<NAME> in the environment or `--<name> <value>` (camelCase → kebab-case). */
function settings<T extends Record<string, number>>(defaults: T): T {
  const result = { ...defaults };
  for (const name of Object.keys(defaults) as Array<keyof T & string>) {
    const kebab = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const flag = process.argv.indexOf(`--${kebab}`);
    const raw = flag >= 0 ? process.argv[flag + 1] : process.env[`BENCH_${kebab.replace(/-/g, '_').toUpperCase()}`];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0, not ${raw}`);
    (result as Record<string, number>)[name] = value;
  }
  return result;
}

function log(line: string): void {
  process.stderr.write(`[bench:flow] ${line}\n`);
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
