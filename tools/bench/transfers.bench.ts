import 'reflect-metadata';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createApiApp } from '@gateway/api';
import { ApiKeysService } from '@gateway/domain/api-keys';
import { DevelopersService } from '@gateway/domain/developers';
import { LedgerService, virtualAccountCreditLines } from '@gateway/domain/ledger';
import { TransferRecipientsService } from '@gateway/domain/transfers';
import { Amount, type DeveloperContext, inTransaction, loadConfig } from '@gateway/platform';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { createProviderSimulator } from '@gateway/provider-sim';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { type BenchRequest, loadRotating, type RotatingLoadResult } from './baseline/rotating-load';
import { benchGatewayEnv, benchSecrets } from './bench-support';

/**
 * Transfers: single transfers created per second (POST /transfers, live keys, through the whole API
 * and a round trip to the provider simulator, whose callbacks then settle each transfer through the
 * same API), and the end-to-end time of 1,000-item bulk batches (POST /transfers/bulk until GET
 * answers `completed`, processed by the real scheduler's job-queue worker). See docs/benchmarks.md
 * ("Transfers").
 *
 * Processes (2 cores, everything shares them): this one (orchestration and the simulator), the API
 * in a child process (`--serve-api`), autocannon in another, the scheduler (bulk part only), and
 * PostgreSQL.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:transfers
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 3);
const SPREAD_MERCHANTS = Number(process.env.BENCH_MERCHANTS ?? 16);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 3);
const BATCH_ITEMS = 1000;
/** Enough for every transfer of a run: 100.00 each. */
const FUNDING = '50000000.00';
const ROOT = resolve(__dirname, '../..');

interface Merchant {
  ctx: DeveloperContext;
  key: string;
  recipient: string;
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server the benchmark may create a database on.');
  const databaseUrl = await createTestDatabase('bench_transfers', serverUrl);
  const secrets = benchSecrets();
  const sim = createProviderSimulator({ secretKeys: [secrets.test, secrets.live], transferDelayMs: 0 });
  const simUrl = await sim.listen();
  const env: Record<string, string> = { ...benchGatewayEnv(databaseUrl, simUrl, secrets), LOG_LEVEL: 'warn' };
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const children: ChildProcess[] = [];
  try {
    log('provisioning live merchants, their wallets and recipients…');
    const merchants = await provision(env, SPREAD_MERCHANTS + 1 + BATCHES);
    const spread = merchants.slice(0, SPREAD_MERCHANTS);
    const hot = merchants[SPREAD_MERCHANTS];
    const bulk = merchants.slice(SPREAD_MERCHANTS + 1);

    log('API: starting (child process)…');
    const api = await startChild(children, ['--serve-api'], env);
    const apiUrl = `http://127.0.0.1:${api.port}`;
    // The provider's callbacks settle each transfer through the API, as in production.
    sim.setWebhookUrl(`${apiUrl}/api/provider/webhooks`);
    const single = (m: Merchant): BenchRequest => ({
      method: 'POST',
      path: '/api/v1/transfers',
      headers: { authorization: `Bearer ${m.key}` },
      body: JSON.stringify({ source: 'wallet', amount: 100, recipient: m.recipient, reason: 'bench' }),
    });
    const rows: Row[] = [];
    rows.push(await measure(api.child, `POST /transfers, ${SPREAD_MERCHANTS} merchants`, apiUrl, spread.map(single)));
    rows.push(await measure(api.child, 'POST /transfers, ONE merchant wallet', apiUrl, [single(hot)]));
    await sim.idle();

    log('scheduler: starting (child process)…');
    const scheduler = await startScheduler(children, env);
    const batches: BatchRun[] = [];
    for (const [n, merchant] of bulk.entries()) {
      batches.push(await runBatch(apiUrl, merchant, n));
      log(`batch ${n + 1}: accepted in ${batches[n].acceptMs} ms, completed after ${batches[n].completedMs} ms, every transfer settled after ${batches[n].settledMs} ms`);
    }
    await stopChild(scheduler);
    await stopChild(api.child);
    const violations = (await db.query('SELECT violation, subject, detail FROM ledger_invariant_violations LIMIT 5')).rows;
    report(rows, batches, violations);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await db.end().catch(() => undefined);
    await sim.close();
    await dropTestDatabase(databaseUrl, serverUrl);
  }
}

interface Row extends RotatingLoadResult {
  cpuUsPerRequest: number;
}

/** Warm-up, then the measured run; every request makes a new transfer (no idempotency key). */
async function measure(server: ChildProcess, label: string, url: string, requests: BenchRequest[]): Promise<Row> {
  failOnErrors(await loadRotating(`warm-up ${label}`, url, requests, { connections: CONNECTIONS, durationSeconds: WARM_UP_SECONDS }));
  const before = cpuTicks(server);
  const result = await loadRotating(label, url, requests, { connections: CONNECTIONS, durationSeconds: SECONDS });
  failOnErrors(result);
  log(`${label}: ${result.rps} transfers/s`);
  return { ...result, cpuUsPerRequest: Math.round(((cpuTicks(server) - before) * 1e6) / CLOCK_TICKS_PER_SECOND / Math.max(1, result.requests)) };
}

function failOnErrors(result: RotatingLoadResult): void {
  if (result.non2xx || result.errors) throw new Error(`${result.label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
}

interface BatchRun {
  acceptMs: number;
  completedMs: number;
  settledMs: number;
  counts: { pending: number; succeeded: number; failed: number };
}

/**
 * One 1,000-item batch (every fifth item by the bank form to one of ten accounts, the others to the
 * saved recipient): POST, then GET every 50 ms until `completed`, then until no amount is reserved
 * (every transfer paid by the simulator and settled by its callback).
 */
async function runBatch(apiUrl: string, m: Merchant, n: number): Promise<BatchRun> {
  const accounts = Array.from({ length: 10 }, (_, i) => `3${String(n).padStart(3, '0')}${String(i).padStart(6, '0')}`);
  const items = Array.from({ length: BATCH_ITEMS }, (_, i) =>
    i % 5 === 0
      ? { amount: 100 + (i % 50), bank_code: '058', account_number: accounts[i % accounts.length], account_name: 'Bench Payee', narration: `Payroll ${i}` }
      : { source: 'wallet', amount: 100 + (i % 50), recipient: m.recipient, reason: `Payroll ${i}` },
  );
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${apiUrl}/api/v1${path}`, { method, headers: { authorization: `Bearer ${m.key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as { data: Record<string, unknown> };
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const started = performance.now();
  const created = await call('POST', '/transfers/bulk', { items });
  const acceptMs = Math.round(performance.now() - started);
  const reference = created.batch_reference as string;
  let batch = created;
  while (batch.status !== 'completed') {
    await sleep(50);
    batch = await call('GET', `/transfers/bulk/${reference}`);
  }
  const completedMs = Math.round(performance.now() - started);
  while ((await call('GET', '/wallet/balance')).reserved_balance !== 0) await sleep(50);
  return { acceptMs, completedMs, settledMs: Math.round(performance.now() - started), counts: batch.counts as BatchRun['counts'] };
}

function report(rows: Row[], batches: BatchRun[], violations: unknown[]): void {
  console.log(`\nSingle transfers: ${CONNECTIONS} connections, ${SECONDS} s per run after ${WARM_UP_SECONDS} s warm-up, Node ${process.version}`);
  console.log('\n| scenario | transfers/s | p50 ms | p99 ms | API process CPU µs/transfer | non-2xx | errors |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.label} | ${r.rps} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.cpuUsPerRequest} | ${r.non2xx} | ${r.errors} |`);
  console.log(`\nBulk: ${batches.length} batches of ${BATCH_ITEMS} items, one after the other`);
  console.log('\n| batch | POST answered (ms) | POST → completed (ms) | items/s | POST → every transfer settled (ms) | counts |');
  console.log('|---|---|---|---|---|---|');
  for (const [i, b] of batches.entries()) {
    console.log(`| ${i + 1} | ${b.acceptMs} | ${b.completedMs} | ${Math.round((BATCH_ITEMS * 1000) / b.completedMs)} | ${b.settledMs} | ${JSON.stringify(b.counts)} |`);
  }
  const median = [...batches].sort((a, b) => a.completedMs - b.completedMs)[Math.floor((batches.length - 1) / 2)];
  console.log(`\nTransfers: ${rows[0]?.rps} single transfers/s (${CONNECTIONS} connections, ${SPREAD_MERCHANTS} merchants); a ${BATCH_ITEMS}-item batch completes in ${median?.completedMs} ms (median of ${batches.length})`);
  console.log(`ledger invariant violations after the run: ${violations.length ? JSON.stringify(violations) : 'none'}`);
}

/** Live merchants (identity verified), each with a funded NGN wallet, a transfers key and one saved recipient. */
async function provision(env: Record<string, string>, count: number): Promise<Merchant[]> {
  const app = await createApiApp({ config: loadConfig(env), databaseUrl: env.DATABASE_URL, logger: false });
  try {
    const developers = app.get(DevelopersService, { strict: false });
    const keys = app.get(ApiKeysService, { strict: false });
    const ledger = app.get(LedgerService, { strict: false });
    const recipients = app.get(TransferRecipientsService, { strict: false });
    const dataSource = app.get(DataSource);
    const merchants: Merchant[] = [];
    for (let i = 0; i < count; i++) {
      const developer = await developers.create({ email: `bench-transfers-${i}@example.com`, name: `Bench ${i}`, emailVerified: true, identityVerified: true });
      const ctx: DeveloperContext = { developerId: developer.id, mode: 'live' };
      const { secret } = await keys.issue({ developerId: developer.id, mode: 'live', kind: 'secret', scopes: ['transfers:read', 'transfers:write', 'wallet:read'] });
      // The money a merchant has collected, as a deposit: a balanced posting, so the books still agree.
      await inTransaction(dataSource, (manager) =>
        ledger.post(manager, ctx, { currency: 'NGN', sourceType: 'bench_deposit', sourceId: randomUUID(), kind: 'credit', reference: `BENCH_${i}`, lines: virtualAccountCreditLines(Amount.parse(FUNDING)) }),
      );
      const recipient = await recipients.findOrCreate(ctx, { bankCode: '058', accountNumber: `2${String(i).padStart(9, '0')}` });
      merchants.push({ ctx, key: secret, recipient: recipient.recipientCode });
    }
    return merchants;
  } finally {
    await app.close();
  }
}

const CLOCK_TICKS_PER_SECOND = 100;

/** user + system CPU time of a child process, in clock ticks (Linux /proc). */
function cpuTicks(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid as number}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** This file as a child process (`--serve-api`), on swc; ready once it prints `READY <port>`. */
async function startChild(children: ChildProcess[], args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', __filename, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const port = await new Promise<number>((done, fail) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\d+)/.exec(output);
      if (match) done(Number(match[1]));
    });
    child.once('exit', (code) => fail(new Error(`API exited (${code}) before listening`)));
  });
  return { child, port };
}

/** The real scheduler app, as `npm start` runs it; ready once its health endpoint answers (its worker has connected by then). */
async function startScheduler(children: ChildProcess[], env: Record<string, string>): Promise<ChildProcess> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/scheduler/src/main.ts'], { cwd: ROOT, env: { ...process.env, ...env, SCHEDULER_PORT: String(port) }, stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(child);
  const deadline = Date.now() + 90_000;
  while (!(await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('the scheduler did not start');
    await sleep(200);
  }
  return child;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(30_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** `--serve-api`: the real API in this (child) process, on a free loopback port. */
async function serveApi(): Promise<void> {
  const config = loadConfig(process.env);
  const app = await createApiApp({ config, databaseUrl: config.database.url as string });
  await app.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(`READY ${(app.getHttpServer().address() as { port: number }).port}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => process.stderr.write(`[bench:transfers] ${line}\n`);

const entry = process.argv.includes('--serve-api') ? serveApi : main;
void entry().then(
  () => (entry === main ? process.exit(0) : undefined),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
