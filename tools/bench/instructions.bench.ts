import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import 'reflect-metadata';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { createProviderSimulator, type ProviderSimulator } from '@gateway/provider-sim';
import { Client } from 'pg';
import { BUILT_API_MAIN, freePort, PRODUCTION_HEAP_FLAGS, ROOT, stopChild, waitUntilReady } from './bench-processes';
import { benchGatewayEnv, benchSecrets, NO_PROVIDER_URL, rateLimitStore } from './bench-support';
import { type ProfileLine, topFunctions } from './callgrind-profile';
import { createWallets, type Merchant, payAtSimulator, preparePayments, provisionMerchants } from './payments-fixtures';

/**
 * `npm run bench:instructions`: the machine instructions the built API executes for one request,
 * counted by valgrind's callgrind. CPU time on a shared machine moves by a fifth from one run to
 * the next; the main thread's instructions by a few percent (the JIT's and the collector's timing,
 * the request log's and the key cache's timers), so a change of 5 % shows in three runs of each
 * build where CPU time needed many more.
 *
 * BENCH_SCENARIO picks the request: `get` (GET payment, the default), `initialize` (POST
 * /payments/initialize, with its call to the provider simulator, which runs in this process) or
 * `verify` (POST /payments/verify of a payment the simulator holds as paid: the credit, its ledger
 * entries and event; each payment verified once).
 *
 * The API starts under callgrind with counting off, serves BENCH_WARM_UP requests (the JIT's
 * warm-up), then counts BENCH_REQUESTS requests and prints their instructions a request: the main
 * thread's, and every thread's (V8's compiler and collector threads vary more). Needs `valgrind`
 * and a build (`npx nx run api:build`; BENCH_API_MAIN: another build's main, to compare two);
 * about 75 s a GET run, the API some 50 times slower under valgrind. BENCH_PROFILE=N also prints
 * the main thread's N costliest functions, the compiled JavaScript named (callgrind-profile.ts);
 * BENCH_PROFILE_INCLUSIVE=1 ranks them with what they called (where a request's time goes by layer).
 * BENCH_KEEP_DUMPS=1 keeps callgrind's files (their path is printed) for `callgrind_annotate`;
 * BENCH_API_NODE_OPTIONS adds flags to the API's node.
 */
const SCENARIOS = ['get', 'initialize', 'verify'] as const;
type Scenario = (typeof SCENARIOS)[number];
const SCENARIO = (process.env.BENCH_SCENARIO ?? 'get') as Scenario;
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 3000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONNECTIONS ?? 8);
const PROFILE_TOP = Number(process.env.BENCH_PROFILE ?? 0);
const PROFILE_INCLUSIVE = process.env.BENCH_PROFILE_INCLUSIVE === '1';
// A profile needs Node's map of its compiled code (/tmp/perf-<pid>.map).
const EXTRA_NODE_FLAGS = [...(PROFILE_TOP > 0 ? ['--perf-basic-prof'] : []), ...(process.env.BENCH_API_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [])];
const run = promisify(execFile);
/** The main thread's file of the one dump callgrind writes on request (`--separate-threads`). */
const MAIN_THREAD_DUMP = 'callgrind.out.1-01';

/** One request of the scenario, and the status that counts as served. */
interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  status: number;
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server the benchmark may create a database on.');
  if (!SCENARIOS.includes(SCENARIO)) throw new Error(`BENCH_SCENARIO must be one of ${SCENARIOS.join(', ')}`);
  if (!existsSync(BUILT_API_MAIN)) throw new Error(`${BUILT_API_MAIN} is missing; run npx nx run api:build first.`);
  await run('valgrind', ['--version']).catch(() => {
    throw new Error('valgrind is not installed (Debian: apt-get install valgrind)');
  });
  const databaseUrl = await createTestDatabase('bench_instructions', serverUrl);
  // callgrind's files, in a directory of this run's.
  const outDir = mkdtempSync(join(tmpdir(), 'callgrind-'));
  const db = new Client({ connectionString: databaseUrl });
  const secrets = benchSecrets();
  // A GET never calls the provider; initialize and verify call the simulator.
  const sim = SCENARIO === 'get' ? undefined : createProviderSimulator({ secretKeys: [secrets.test, secrets.live], transferDelayMs: 0 });
  let api: ChildProcess | undefined;
  try {
    await db.connect();
    const env = benchGatewayEnv(databaseUrl, sim ? await sim.listen() : NO_PROVIDER_URL, secrets);
    const [merchant] = await provisionMerchants(env, 1);
    const calls = await scenarioCalls(db, merchant, sim, secrets.test);
    await db.query('VACUUM ANALYZE');
    const port = await freePort();
    log('starting the built API under callgrind, counting off (a minute or two)…');
    api = spawn(
      'valgrind',
      ['--tool=callgrind', '--separate-threads=yes', '--smc-check=all-non-file', '--instr-atstart=no', `--callgrind-out-file=${outDir}/callgrind.out`, process.execPath, ...PRODUCTION_HEAP_FLAGS, ...EXTRA_NODE_FLAGS, BUILT_API_MAIN],
      { cwd: ROOT, env: { ...process.env, ...env, API_HOST: '127.0.0.1', API_PORT: String(port), LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    api.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitUntilReady(api, `http://127.0.0.1:${port}`, { timeoutMs: 10 * 60_000, pollMs: 500, output: () => stderr });
    const headers = { authorization: `Bearer ${merchant.key}`, 'content-type': 'application/json' };
    log(`warm-up: ${WARM_UP} requests (${SCENARIO})…`);
    await load(port, calls, headers, 0, WARM_UP);
    await callgrindControl(api, '--instr=on');
    log(`counting ${REQUESTS} requests…`);
    await load(port, calls, headers, WARM_UP, REQUESTS);
    await callgrindControl(api, '--dump');
    report(dumpedInstructions(outDir));
    if (PROFILE_TOP > 0) printProfile(await topFunctions(join(outDir, MAIN_THREAD_DUMP), perfMapOf(api), PROFILE_TOP, PROFILE_INCLUSIVE), PROFILE_INCLUSIVE);
    if (process.env.BENCH_KEEP_DUMPS) log(`callgrind's files kept in ${outDir}`);
  } finally {
    if (api) await stopChild(api);
    if (api && PROFILE_TOP > 0) rmSync(perfMapOf(api), { force: true });
    await sim?.close();
    await db.end().catch(() => undefined);
    if (!process.env.BENCH_KEEP_DUMPS) rmSync(outDir, { recursive: true, force: true });
    await dropTestDatabase(databaseUrl, serverUrl);
  }
}

/** The scenario's requests: the load cycles through them (verify has one per request, each payment verified once). */
async function scenarioCalls(db: Client, merchant: Merchant, sim: ProviderSimulator | undefined, secret: string): Promise<Call[]> {
  if (SCENARIO === 'get') {
    const payments = await preparePayments(db, 'INS', [merchant], 200);
    return payments.map((p) => ({ method: 'GET', path: `/api/v1/payments/${p.reference}`, status: 200 }));
  }
  if (SCENARIO === 'initialize') {
    return [{ method: 'POST', path: '/api/v1/payments/initialize', body: JSON.stringify({ amount: 5000, email: merchant.email }), status: 201 }];
  }
  log(`preparing ${WARM_UP + REQUESTS} payments paid at the simulator…`);
  await createWallets(db, [merchant]);
  const payments = await preparePayments(db, 'INV', [merchant], WARM_UP + REQUESTS);
  await payAtSimulator(sim as ProviderSimulator, secret, payments);
  return payments.map((p) => ({ method: 'POST', path: '/api/v1/payments/verify', body: JSON.stringify({ reference: p.reference }), status: 200 }));
}

/**
 * `count` requests over keep-alive connections, CONCURRENCY at a time: `calls` from index `first`
 * on, cycling; any status but the call's fails the run.
 */
async function load(port: number, calls: Call[], headers: Record<string, string>, first: number, count: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let next = 0;
  const one = (call: Call) =>
    new Promise<void>((done, fail) => {
      const req = request({ host: '127.0.0.1', port, method: call.method, path: call.path, headers, agent }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => (res.statusCode === call.status ? done() : fail(new Error(`${call.method} ${call.path}: ${res.statusCode} ${body}`))));
      });
      req.on('error', fail);
      req.end(call.body);
    });
  const worker = async () => {
    while (next < count) await one(calls[(first + next++) % calls.length]);
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  } finally {
    agent.destroy();
  }
}

async function callgrindControl(child: ChildProcess, action: string): Promise<void> {
  await run('callgrind_control', [action, String(child.pid)]);
}

interface Counted {
  /** The main thread's: JavaScript, the interpreter, scavenges and the event loop. */
  main: number;
  /** Every thread's: the main one, and V8's compiler and collector threads. */
  all: number;
}

/**
 * The instructions (`Ir`) of the dump callgrind wrote on request: one file per thread
 * (`--separate-threads`), `callgrind.out.1-<thread>`, the main thread 01.
 */
function dumpedInstructions(dir: string): Counted {
  const threads = readdirSync(dir)
    .filter((file) => file.startsWith('callgrind.out.1-'))
    .map((file) => join(dir, file));
  if (threads.length === 0) throw new Error('callgrind wrote no dump');
  const summary = (file: string) => {
    const line = /^summary:\s+(\d+)/m.exec(readFileSync(file, 'utf8'));
    if (!line) throw new Error(`no summary line in ${file}`);
    return Number(line[1]);
  };
  return { main: summary(join(dir, MAIN_THREAD_DUMP)), all: threads.reduce((sum, file) => sum + summary(file), 0) };
}

const SCENARIO_TITLES: Record<Scenario, string> = {
  get: 'GET payment',
  initialize: 'initialize, with its provider call',
  verify: 'verify of a paid payment',
};

function report(counted: Counted): void {
  const each = (n: number) => Math.round(n / REQUESTS).toLocaleString('en-US');
  const lines = [
    '',
    `Instructions of the built API (${BUILT_API_MAIN.slice(ROOT.length + 1)}) a request (${SCENARIO_TITLES[SCENARIO]}), callgrind; ${REQUESTS} counted after ${WARM_UP} uncounted, ${CONCURRENCY} at a time; ${rateLimitStore()}; Node ${process.version}`,
    '',
    '| threads | instructions counted | a request |',
    '|---|---:|---:|',
    `| main thread | ${counted.main.toLocaleString('en-US')} | **${each(counted.main)}** |`,
    `| every thread (V8's compiler and collector threads too) | ${counted.all.toLocaleString('en-US')} | ${each(counted.all)} |`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function perfMapOf(api: ChildProcess): string {
  return `/tmp/perf-${api.pid}.map`;
}

function printProfile(lines: ProfileLine[], inclusive: boolean): void {
  const rows = lines.map((l) => `| ${l.instructions.toLocaleString('en-US')} | ${l.share} % | ${Math.round(l.instructions / REQUESTS).toLocaleString('en-US')} | ${l.name.replaceAll('|', '\\|')} |`);
  process.stdout.write(`\nThe main thread's costliest functions, ${inclusive ? 'with what they called' : 'own instructions'}:\n\n| instructions | share | a request | function |\n|---:|---:|---:|---|\n${rows.join('\n')}\n`);
}

function log(line: string): void {
  process.stderr.write(`[bench:instructions] ${line}\n`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
