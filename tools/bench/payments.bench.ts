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
 * - the API in a child process (`serve-api.ts`) and the bare server in another, side by side (the
 *   one not measured is idle), so each API scenario is measured right beside its bare one, in the
 *   other order in the next round (BENCH_ROUNDS); autocannon in a third, pgbench, and PostgreSQL.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:payments
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 3);
const SPREAD_MERCHANTS = Number(process.env.BENCH_MERCHANTS ?? 64);
/**
 * Rounds of the API and bare scenarios, each pair in the other order in the next round (2: API
 * then bare, then bare then API). A ratio is met only when it is met in every round.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** Prepared payments per verify case and round (one per request): a run that uses them all is flagged. */
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

/** One scenario (its BENCH_ONLY id) as the API and as the bare server run it. */
interface Scenario {
  id: string;
  /** Each request is new (a verify of a pending payment): never sent twice. */
  once?: boolean;
  api: { label: string; requests: BenchRequest[] };
  bare: { label: string; requests: BenchRequest[] };
}

async function main(): Promise<void> {
  if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`BENCH_ROUNDS must be a whole number of at least 1, got ${process.env.BENCH_ROUNDS}.`);
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
    const apiSpread = await preparePayments(db, 'APS', spread, API_POOL * ROUNDS);
    const apiHot = await preparePayments(db, 'APH', hot, API_POOL * ROUNDS);
    await payAtSimulator(sim, secrets.test, [...apiSpread, ...apiHot], AMOUNT);
    const bareSpread = await preparePayments(db, 'BRS', spread, BARE_POOL * ROUNDS);
    const bareHot = await preparePayments(db, 'BRH', hot, BARE_POOL * ROUNDS);
    await preparePayments(db, 'PGS_', spread, PGBENCH_POOL, true);
    await preparePayments(db, 'PGH_', hot, PGBENCH_POOL, true);
    await db.query('CREATE SEQUENCE bench_pgbench_spread; CREATE SEQUENCE bench_pgbench_hot');
    await db.query('VACUUM ANALYZE');

    log(`API${runs('bare') ? ' and bare Fastify + pg' : ''}: starting (child process${runs('bare') ? 'es' : ''})…`);
    const api = await startChild(children, [], env, SERVE_API, CPU_PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROFILE_DIR] : []);
    const bare = runs('bare') ? await startChild(children, [], { DATABASE_URL: databaseUrl, POOL_SIZE: '10' }, 'tools/bench/baseline/bare-payments-server.ts') : undefined;
    const apiServer = { child: api.child, url: `http://127.0.0.1:${api.port}` };
    const bareServer = bare && { child: bare.child, url: `http://127.0.0.1:${bare.port}` };
    const keyOf = new Map(merchants.map((m) => [m.developerId, m.key]));
    const apiVerify = (p: PreparedPayment): BenchRequest => ({
      method: 'POST',
      path: '/api/v1/payments/verify',
      headers: { authorization: `Bearer ${keyOf.get(p.developerId) as string}` },
      body: JSON.stringify({ reference: p.reference }),
    });
    const bareVerify = (p: PreparedPayment): BenchRequest => ({
      method: 'POST',
      path: '/payments/verify',
      headers: { 'x-developer-id': p.developerId },
      body: JSON.stringify({ reference: p.reference }),
    });
    // GET the verified payments (success, with their saved card), spread over the merchants.
    const readable = apiSpread.slice(0, 2_000);
    const scenarios: Scenario[] = [
      {
        id: 'initialize',
        api: { label: 'API initialize (64 merchants)', requests: spread.map((m) => ({ method: 'POST', path: '/api/v1/payments/initialize', headers: { authorization: `Bearer ${m.key}` }, body: JSON.stringify({ amount: 5000, email: m.email }) })) },
        bare: { label: 'bare initialize (64 merchants)', requests: spread.map((m) => ({ method: 'POST', path: '/payments/initialize', headers: { 'x-developer-id': m.developerId }, body: JSON.stringify({ amount: 5000, email: m.email }) })) },
      },
      { id: 'verify', once: true, api: { label: 'API verify, spread wallets', requests: apiSpread.map(apiVerify) }, bare: { label: 'bare verify, spread wallets', requests: bareSpread.map(bareVerify) } },
      { id: 'hot', once: true, api: { label: 'API verify, ONE hot wallet', requests: apiHot.map(apiVerify) }, bare: { label: 'bare verify, ONE hot wallet', requests: bareHot.map(bareVerify) } },
      {
        id: 'get',
        api: { label: 'API GET payment', requests: readable.map((p) => ({ method: 'GET', path: `/api/v1/payments/${p.reference}`, headers: { authorization: `Bearer ${keyOf.get(p.developerId) as string}` } })) },
        bare: { label: 'bare GET payment', requests: readable.map((p) => ({ method: 'GET', path: `/payments/${p.reference}`, headers: { 'x-developer-id': p.developerId } })) },
      },
    ];
    const rounds: Row[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const rows: Row[] = [];
      for (const scenario of scenarios.filter((s) => runs(s.id))) {
        // API then bare in the first round, bare then API in the second, and so on: a machine
        // that speeds up or slows down during the run favours neither side of a ratio.
        const sides = [
          { server: apiServer, ...scenario.api },
          ...(bareServer ? [{ server: bareServer, ...scenario.bare }] : []),
        ];
        for (const side of round % 2 === 0 ? sides : sides.reverse()) {
          // A verify uses each prepared payment once: every round has its own share of them.
          const requests = scenario.once ? roundShare(side.requests, round) : side.requests;
          rows.push(await measure(db, side.server.child, side.label, side.server.url, requests, scenario.once ?? false, round));
        }
      }
      rounds.push(rows);
    }
    await stopChild(api.child);
    if (bare) await stopChild(bare.child);

    const pgbenchCases = [
      ['pgbench verify tx, spread wallets', 'PGS_', 'bench_pgbench_spread'],
      ['pgbench verify tx, ONE hot wallet', 'PGH_', 'bench_pgbench_hot'],
    ] as const;
    const pgbenchRows: Row[] = [];
    for (const [label, prefix, sequence] of runs('pgbench') ? pgbenchCases : []) {
      await runPgbench(databaseUrl, { connections: CONNECTIONS, seconds: WARM_UP_SECONDS, prefix, sequence });
      await analyze(db);
      pgbenchRows.push({ label, ...(await runPgbench(databaseUrl, { connections: CONNECTIONS, seconds: SECONDS, prefix, sequence })) });
    }
    for (const sequence of ['bench_pgbench_spread', 'bench_pgbench_hot']) {
      const used = Number((await db.query(`SELECT last_value FROM ${sequence}`)).rows[0].last_value);
      if (used >= PGBENCH_POOL) pgbenchRows.push({ label: `${sequence} used every prepared payment: raise BENCH_PGBENCH_POOL`, requests: 0, rps: NaN, p50: NaN, p99: NaN, errors: 1, non2xx: 0 });
    }
    const violations = (await db.query('SELECT violation, subject, detail FROM ledger_invariant_violations LIMIT 5')).rows;

    report(rounds, pgbenchRows, violations);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await db.end().catch(() => undefined);
    await sim.close();
    await dropTestDatabase(databaseUrl, serverUrl);
  }
}

/** The part of a verify case's prepared payments that round `round` uses. */
function roundShare<T>(requests: T[], round: number): T[] {
  const share = Math.floor(requests.length / ROUNDS);
  return requests.slice(round * share, (round + 1) * share);
}

/** Warm-up, then the measured run (verify: each prepared payment used once). */
async function measure(db: Client, server: ChildProcess, label: string, url: string, requests: BenchRequest[], once: boolean, round: number): Promise<Row> {
  const result = await measureRotating(server, label, url, requests, {
    once,
    connections: CONNECTIONS,
    seconds: SECONDS,
    warmUpSeconds: WARM_UP_SECONDS,
    afterWarmUp: () => analyze(db),
  });
  log(`${label}${ROUNDS > 1 ? ` (round ${round + 1})` : ''}: ${result.rps} req/s`);
  return result;
}

async function analyze(db: Client): Promise<void> {
  if (ANALYZE_AFTER_WARM_UP) await db.query('ANALYZE');
}

function report(rounds: Row[][], pgbenchRows: Row[], ledgerViolations: unknown[]): void {
  const order = ROUNDS > 1 ? `; ${ROUNDS} rounds, API and bare servers side by side, each pair API first in odd rounds and bare first in even ones` : '';
  console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per run after ${WARM_UP_SECONDS} s warm-up${ANALYZE_AFTER_WARM_UP ? ' and ANALYZE' : ' (no ANALYZE after it)'}, Node ${process.version}, ${SPREAD_MERCHANTS} merchants in the spread case${order}; API ${rateLimitStore()}`);
  console.log('\n| scenario | req/s | p50 ms | p99 ms | server process CPU µs/req | whole machine µs/req (PostgreSQL) | non-2xx | errors |');
  console.log('|---|---|---|---|---|---|---|---|');
  const figure = (value: number | undefined) => (value === undefined ? '–' : String(value));
  const printRow = (r: Row, suffix: string) => {
    const machine = r.machineUsPerRequest === undefined ? '–' : `${r.machineUsPerRequest} (${figure(r.postgresUsPerRequest)})`;
    console.log(`| ${r.label}${suffix}${r.exhausted ? ' (ran out of prepared payments!)' : ''} | ${r.rps} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${figure(r.cpuUsPerRequest)} | ${machine} | ${r.non2xx} | ${r.errors} |`);
  };
  rounds.forEach((rows, round) => rows.forEach((r) => printRow(r, ROUNDS > 1 ? ` (round ${round + 1})` : '')));
  pgbenchRows.forEach((r) => printRow(r, ''));

  // Each ratio is taken within a round, where its two runs were measured one right after the other.
  type Figure = (rows: Row[], label: string) => number;
  const rps: Figure = (rows, label) => rows.find((r) => r.label === label)?.rps ?? NaN;
  const cpu: Figure = (rows, label) => rows.find((r) => r.label === label)?.cpuUsPerRequest ?? NaN;
  const ratios: Array<[name: string, figure: Figure, numerator: string, denominator: string, target: number]> = [
    ['GET payment: API / bare', rps, 'API GET payment', 'bare GET payment', 0.75],
    ['initialize: API (with simulator round trip) / bare', rps, 'API initialize (64 merchants)', 'bare initialize (64 merchants)', 0.5],
    ['verify: API (with simulator round trip) / bare', rps, 'API verify, spread wallets', 'bare verify, spread wallets', 0.5],
    ['hot-merchant verify: API one wallet / API spread', rps, 'API verify, ONE hot wallet', 'API verify, spread wallets', 0.8],
    ['(context) CPU per request, bare / API: GET', cpu, 'bare GET payment', 'API GET payment', NaN],
    ['(context) CPU per request, bare / API: initialize', cpu, 'bare initialize (64 merchants)', 'API initialize (64 merchants)', NaN],
    ['(context) CPU per request, bare / API: verify', cpu, 'bare verify, spread wallets', 'API verify, spread wallets', NaN],
    ['(context) bare one wallet / bare spread', rps, 'bare verify, ONE hot wallet', 'bare verify, spread wallets', NaN],
  ];
  console.log(`\n| ratio | measured${ROUNDS > 1 ? ' (each round)' : ''} | target | |`);
  console.log('|---|---|---|---|');
  const printRatio = (name: string, values: number[], target: number) => {
    // A scenario left out by BENCH_ONLY is "not run", never "NOT met".
    const verdict = values.some(Number.isNaN) ? 'not run' : Number.isNaN(target) ? '' : values.every((v) => v >= target) ? 'met' : 'NOT met';
    console.log(`| ${name} | ${values.map((v) => v.toFixed(2)).join(' / ')} | ${Number.isNaN(target) ? '–' : `≥ ${target.toFixed(2)}`} | ${verdict} |`);
  };
  for (const [name, figureOf, numerator, denominator, target] of ratios) {
    printRatio(name, rounds.map((rows) => figureOf(rows, numerator) / figureOf(rows, denominator)), target);
  }
  printRatio('(context) pgbench one wallet / pgbench spread', [rps(pgbenchRows, 'pgbench verify tx, ONE hot wallet') / rps(pgbenchRows, 'pgbench verify tx, spread wallets')], NaN);
  console.log(`\nledger invariant violations after the run: ${ledgerViolations.length ? JSON.stringify(ledgerViolations) : 'none'}`);
}

function log(line: string): void {
  process.stderr.write(`[bench:payments] ${line}\n`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
