import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { createProviderSimulator } from '@gateway/provider-sim';
import { Client } from 'pg';
import { type MeasuredRun, measureRotating, SERVE_API, startChild, stopChild } from './bench-processes';
import { benchGatewayEnv, benchSecrets, type LoadResult, rateLimitStore } from './bench-support';
import type { BenchRequest } from './baseline/rotating-load';
import { createWallets, payAtSimulator, preparePayments, type PreparedPayment, provisionMerchants } from './payments-fixtures';
import { runPgbench } from './pgbench/run-pgbench';

/**
 * Payments under load: initialize, verify (spread over many merchants' wallets, and all on ONE
 * merchant's wallet) and GET payment through the real API (full guard chain, request log on, rate
 * limits raised so they never refuse), beside bare baselines in the same run: a plain Fastify + pg
 * server doing the same GET, initialize and verify SQL (tools/bench/baseline), and pgbench running
 * that transaction. See docs/benchmarks.md ("Payments").
 *
 * Processes (2 cores, everything shares them; scenarios run one after the other):
 * - this process: orchestration and the provider simulator (its own event loop; idle except for
 *   the API's verify calls);
 * - the API in a child process (`serve-api.ts`), the bare server in another (started after the API
 *   is stopped), autocannon in a third, pgbench, and PostgreSQL.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:payments
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 3);
const SPREAD_MERCHANTS = Number(process.env.BENCH_MERCHANTS ?? 64);
/** Prepared payments per verify case (one per request): a run that uses them all is flagged. */
const API_POOL = Number(process.env.BENCH_API_POOL ?? 12_000);
const BARE_POOL = Number(process.env.BENCH_BARE_POOL ?? 40_000);
const PGBENCH_POOL = Number(process.env.BENCH_PGBENCH_POOL ?? 60_000);
const AMOUNT = '5000.00';
/** Comma-separated scenario ids to run (initialize, verify, hot, get, bare, pgbench): for profiling one. */
const ONLY = process.env.BENCH_ONLY?.split(',');
const runs = (id: string) => !ONLY || ONLY.includes(id);
/**
 * BENCH_ANALYZE_AFTER_WARM_UP=0: measure on the statistics taken while the tables that verify and
 * initialize fill were empty (see analyzeBeforeMeasuring in flow.bench.ts). By default every
 * scenario's warm-up is followed by ANALYZE, as autovacuum would have run on a live database.
 */
const ANALYZE_AFTER_WARM_UP = process.env.BENCH_ANALYZE_AFTER_WARM_UP !== '0';
/** A directory: the API child writes a V8 CPU profile there (`--cpu-prof`). */
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF;

/** A measured scenario (MeasuredRun) or a pgbench run, which has no server process to measure. */
type Row = LoadResult & Partial<Pick<MeasuredRun, 'machineUsPerRequest' | 'postgresUsPerRequest' | 'exhausted'>>;

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server the benchmark may create a database on.');
  const databaseUrl = await createTestDatabase('bench_payments', serverUrl);
  const secrets = benchSecrets();
  // No webhook URL: the simulator sends no callbacks, so only verify credits.
  const sim = createProviderSimulator({ secretKeys: [secrets.test, secrets.live], transferDelayMs: 0 });
  const simUrl = await sim.listen();
  const env = benchGatewayEnv(databaseUrl, simUrl, secrets);
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const children: ChildProcess[] = [];
  try {
    log('provisioning merchants…');
    const merchants = await provisionMerchants(env, SPREAD_MERCHANTS + 1);
    const spread = merchants.slice(0, SPREAD_MERCHANTS);
    const hot = [merchants[SPREAD_MERCHANTS]];
    await createWallets(db, merchants);

    log('preparing payments paid at the simulator…');
    const apiSpread = await preparePayments(db, 'APS', spread, API_POOL);
    const apiHot = await preparePayments(db, 'APH', hot, API_POOL);
    await payAtSimulator(sim, secrets.test, [...apiSpread, ...apiHot], AMOUNT);
    const bareSpread = await preparePayments(db, 'BRS', spread, BARE_POOL);
    const bareHot = await preparePayments(db, 'BRH', hot, BARE_POOL);
    await preparePayments(db, 'PGS_', spread, PGBENCH_POOL, true);
    await preparePayments(db, 'PGH_', hot, PGBENCH_POOL, true);
    await db.query('CREATE SEQUENCE bench_pgbench_spread; CREATE SEQUENCE bench_pgbench_hot');
    await db.query('VACUUM ANALYZE');

    const rows: Row[] = [];
    log('API: starting (child process)…');
    const api = await startChild(children, [], env, SERVE_API, CPU_PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROFILE_DIR] : []);
    const apiUrl = `http://127.0.0.1:${api.port}`;
    const keyOf = new Map(merchants.map((m) => [m.developerId, m.key]));
    const asApi = (p: PreparedPayment): BenchRequest => ({
      method: 'POST',
      path: '/api/v1/payments/verify',
      headers: { authorization: `Bearer ${keyOf.get(p.developerId) as string}` },
      body: JSON.stringify({ reference: p.reference }),
    });
    const initializeRequests: BenchRequest[] = spread.map((m) => ({
      method: 'POST',
      path: '/api/v1/payments/initialize',
      headers: { authorization: `Bearer ${m.key}` },
      body: JSON.stringify({ amount: 5000, email: m.email }),
    }));
    if (runs('initialize')) rows.push(await measure(db, api.child, 'API initialize (64 merchants)', apiUrl, initializeRequests, false));
    if (runs('verify')) rows.push(await measure(db, api.child, 'API verify, spread wallets', apiUrl, apiSpread.map(asApi), true));
    if (runs('hot')) rows.push(await measure(db, api.child, 'API verify, ONE hot wallet', apiUrl, apiHot.map(asApi), true));
    // GET the verified payments (success, with their saved card), spread over the merchants.
    const readable = apiSpread.slice(0, 2_000);
    if (runs('get'))
      rows.push(
        await measure(db, api.child, 'API GET payment', apiUrl, readable.map((p) => ({ method: 'GET', path: `/api/v1/payments/${p.reference}`, headers: { authorization: `Bearer ${keyOf.get(p.developerId) as string}` } })), false),
    );
    await stopChild(api.child);

    if (runs('bare')) {
      log('bare Fastify + pg: starting (child process)…');
      const bare = await startChild(children, [], { DATABASE_URL: databaseUrl, POOL_SIZE: '10' }, 'tools/bench/baseline/bare-payments-server.ts');
      const bareUrl = `http://127.0.0.1:${bare.port}`;
      const asBare = (p: PreparedPayment): BenchRequest => ({
        method: 'POST',
        path: '/payments/verify',
        headers: { 'x-developer-id': p.developerId },
        body: JSON.stringify({ reference: p.reference }),
      });
      const bareInitialize: BenchRequest[] = spread.map((m) => ({
        method: 'POST',
        path: '/payments/initialize',
        headers: { 'x-developer-id': m.developerId },
        body: JSON.stringify({ amount: 5000, email: m.email }),
      }));
      rows.push(await measure(db, bare.child, 'bare initialize (64 merchants)', bareUrl, bareInitialize, false));
      rows.push(await measure(db, bare.child, 'bare GET payment', bareUrl, readable.map((p) => ({ method: 'GET', path: `/payments/${p.reference}`, headers: { 'x-developer-id': p.developerId } })), false));
      rows.push(await measure(db, bare.child, 'bare verify, spread wallets', bareUrl, bareSpread.map(asBare), true));
      rows.push(await measure(db, bare.child, 'bare verify, ONE hot wallet', bareUrl, bareHot.map(asBare), true));
      await stopChild(bare.child);
    }

    const pgbenchCases = [
      ['pgbench verify tx, spread wallets', 'PGS_', 'bench_pgbench_spread'],
      ['pgbench verify tx, ONE hot wallet', 'PGH_', 'bench_pgbench_hot'],
    ] as const;
    for (const [label, prefix, sequence] of runs('pgbench') ? pgbenchCases : []) {
      await runPgbench(databaseUrl, { connections: CONNECTIONS, seconds: WARM_UP_SECONDS, prefix, sequence });
      await analyze(db);
      rows.push({ label, ...(await runPgbench(databaseUrl, { connections: CONNECTIONS, seconds: SECONDS, prefix, sequence })) });
    }
    for (const sequence of ['bench_pgbench_spread', 'bench_pgbench_hot']) {
      const used = Number((await db.query(`SELECT last_value FROM ${sequence}`)).rows[0].last_value);
      if (used >= PGBENCH_POOL) rows.push({ label: `${sequence} used every prepared payment: raise BENCH_PGBENCH_POOL`, requests: 0, rps: NaN, p50: NaN, p99: NaN, errors: 1, non2xx: 0 });
    }
    const violations = (await db.query('SELECT violation, subject, detail FROM ledger_invariant_violations LIMIT 5')).rows;

    report(rows, violations);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await db.end().catch(() => undefined);
    await sim.close();
    await dropTestDatabase(databaseUrl, serverUrl);
  }
}

/** Warm-up, then the measured run (verify: each prepared payment used once). */
async function measure(db: Client, server: ChildProcess, label: string, url: string, requests: BenchRequest[], once: boolean): Promise<Row> {
  const result = await measureRotating(server, label, url, requests, {
    once,
    connections: CONNECTIONS,
    seconds: SECONDS,
    warmUpSeconds: WARM_UP_SECONDS,
    afterWarmUp: () => analyze(db),
  });
  log(`${label}: ${result.rps} req/s`);
  return result;
}

async function analyze(db: Client): Promise<void> {
  if (ANALYZE_AFTER_WARM_UP) await db.query('ANALYZE');
}

function report(rows: Row[], ledgerViolations: unknown[]): void {
  console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per run after ${WARM_UP_SECONDS} s warm-up${ANALYZE_AFTER_WARM_UP ? ' and ANALYZE' : ' (no ANALYZE after it)'}, Node ${process.version}, ${SPREAD_MERCHANTS} merchants in the spread case; API ${rateLimitStore()}`);
  console.log('\n| scenario | req/s | p50 ms | p99 ms | server process CPU µs/req | whole machine µs/req (PostgreSQL) | non-2xx | errors |');
  console.log('|---|---|---|---|---|---|---|---|');
  const figure = (value: number | undefined) => (value === undefined ? '–' : String(value));
  for (const r of rows) {
    const machine = r.machineUsPerRequest === undefined ? '–' : `${r.machineUsPerRequest} (${figure(r.postgresUsPerRequest)})`;
    console.log(`| ${r.label}${r.exhausted ? ' (ran out of prepared payments!)' : ''} | ${r.rps} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${figure(r.cpuUsPerRequest)} | ${machine} | ${r.non2xx} | ${r.errors} |`);
  }
  const rps = (label: string) => rows.find((r) => r.label === label)?.rps ?? NaN;
  const cpu = (label: string) => rows.find((r) => r.label === label)?.cpuUsPerRequest ?? NaN;
  const ratios: Array<[string, number, number]> = [
    ['GET payment: API / bare', rps('API GET payment') / rps('bare GET payment'), 0.75],
    ['initialize: API (with simulator round trip) / bare', rps('API initialize (64 merchants)') / rps('bare initialize (64 merchants)'), 0.5],
    ['verify: API (with simulator round trip) / bare', rps('API verify, spread wallets') / rps('bare verify, spread wallets'), 0.5],
    ['hot-merchant verify: API one wallet / API spread', rps('API verify, ONE hot wallet') / rps('API verify, spread wallets'), 0.8],
    ['(context) CPU per request, bare / API: GET', cpu('bare GET payment') / cpu('API GET payment'), NaN],
    ['(context) CPU per request, bare / API: initialize', cpu('bare initialize (64 merchants)') / cpu('API initialize (64 merchants)'), NaN],
    ['(context) CPU per request, bare / API: verify', cpu('bare verify, spread wallets') / cpu('API verify, spread wallets'), NaN],
    ['(context) bare one wallet / bare spread', rps('bare verify, ONE hot wallet') / rps('bare verify, spread wallets'), NaN],
    ['(context) pgbench one wallet / pgbench spread', rps('pgbench verify tx, ONE hot wallet') / rps('pgbench verify tx, spread wallets'), NaN],
  ];
  console.log('\n| ratio | measured | target | |');
  console.log('|---|---|---|---|');
  for (const [name, value, target] of ratios) {
    const verdict = Number.isNaN(target) ? '' : value >= target ? 'met' : 'NOT met';
    console.log(`| ${name} | ${value.toFixed(2)} | ${Number.isNaN(target) ? '–' : `≥ ${target.toFixed(2)}`} | ${verdict} |`);
  }
  console.log(`\nledger invariant violations after the run: ${ledgerViolations.length ? JSON.stringify(ledgerViolations) : 'none'}`);
}

function log(line: string): void {
  process.stderr.write(`[bench:payments] ${line}\n`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
