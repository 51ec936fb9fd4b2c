import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { Client } from 'pg';
import { freePort, ROOT, stopChild } from './bench-processes';
import { benchGatewayEnv, rateLimitStore } from './bench-support';
import { preparePayments, provisionMerchants } from './payments-fixtures';

/**
 * `npm run bench:instructions`: the machine instructions the built API executes for one GET
 * payment, counted by valgrind's callgrind. CPU time on a shared machine moves by a fifth from one
 * run to the next; the main thread's instructions by a few percent (the JIT's and the collector's
 * timing, the request log's and the key cache's timers), so a change of 5 % shows in three runs of
 * each build where CPU time needed many more.
 *
 * The API starts under callgrind with counting off, serves BENCH_WARM_UP requests (the JIT's
 * warm-up), then counts BENCH_REQUESTS requests and prints their instructions a request: the main
 * thread's, and every thread's (V8's compiler and collector threads vary more). Needs `valgrind`
 * and a build (`npx nx run api:build`; BENCH_API_MAIN: another build's main, to compare two);
 * about 75 s a run, the API some 50 times slower under valgrind. BENCH_KEEP_DUMPS=1 keeps
 * callgrind's files (their path is printed) for `callgrind_annotate`; BENCH_API_NODE_OPTIONS adds
 * flags to the API's node.
 */
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 3000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONNECTIONS ?? 8);
const API_MAIN = resolve(ROOT, process.env.BENCH_API_MAIN ?? 'dist/apps/api/apps/api/src/main.js');
const PRODUCTION_HEAP_FLAGS = ['--max-old-space-size=512', '--max-semi-space-size=16'];
const NO_PROVIDER = 'http://127.0.0.1:9';
const EXTRA_NODE_FLAGS = process.env.BENCH_API_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [];
const run = promisify(execFile);

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server the benchmark may create a database on.');
  if (!existsSync(API_MAIN)) throw new Error(`${API_MAIN} is missing; run npx nx run api:build first.`);
  await run('valgrind', ['--version']).catch(() => {
    throw new Error('valgrind is not installed (Debian: apt-get install valgrind)');
  });
  const databaseUrl = await createTestDatabase('bench_instructions', serverUrl);
  const outDir = join(tmpdir(), `callgrind-${randomBytes(4).toString('hex')}`);
  const db = new Client({ connectionString: databaseUrl });
  let api: ChildProcess | undefined;
  try {
    await db.connect();
    const secrets = { test: `sk_test_bench_${randomBytes(8).toString('hex')}`, live: `sk_live_bench_${randomBytes(8).toString('hex')}` };
    const env = benchGatewayEnv(databaseUrl, NO_PROVIDER, secrets);
    const [merchant] = await provisionMerchants(env, 1);
    const payments = await preparePayments(db, 'INS', [merchant], 200);
    await db.query('VACUUM ANALYZE');
    const port = await freePort();
    log('starting the built API under callgrind, counting off (a minute or two)…');
    api = spawn(
      'valgrind',
      ['--tool=callgrind', '--separate-threads=yes', '--smc-check=all-non-file', '--instr-atstart=no', `--callgrind-out-file=${outDir}.%p`, process.execPath, ...PRODUCTION_HEAP_FLAGS, ...EXTRA_NODE_FLAGS, API_MAIN],
      { cwd: ROOT, env: { ...process.env, ...env, API_HOST: '127.0.0.1', API_PORT: String(port), LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    api.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitReady(api, port, () => stderr);
    const paths = payments.map((p) => `/api/v1/payments/${p.reference}`);
    const headers = { authorization: `Bearer ${merchant.key}` };
    log(`warm-up: ${WARM_UP} GETs…`);
    await load(port, paths, headers, WARM_UP);
    await callgrindControl(api, '--instr=on');
    log(`counting ${REQUESTS} GETs…`);
    await load(port, paths, headers, REQUESTS);
    await callgrindControl(api, '--dump');
    await callgrindControl(api, '--instr=off');
    report(dumpedInstructions(outDir, api.pid as number));
    if (process.env.BENCH_KEEP_DUMPS) log(`dumps kept: ${outDir}.*`);
  } finally {
    if (api) await stopChild(api);
    await db.end().catch(() => undefined);
    if (!process.env.BENCH_KEEP_DUMPS) for (const file of readdirSync(tmpdir())) if (join(tmpdir(), file).startsWith(outDir)) rmSync(join(tmpdir(), file), { force: true });
    await dropTestDatabase(databaseUrl, serverUrl);
  }
}

async function waitReady(child: ChildProcess, port: number, output: () => string): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  while (!(await fetch(`http://127.0.0.1:${port}/ready`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) throw new Error(`the API exited under valgrind (${child.exitCode}): ${output().slice(-2000)}`);
    if (Date.now() > deadline) throw new Error('the API was not ready under valgrind within 10 minutes');
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** `count` GETs over keep-alive connections, CONCURRENCY at a time; any answer but 200 fails the run. */
async function load(port: number, paths: string[], headers: Record<string, string>, count: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let next = 0;
  const one = (path: string) =>
    new Promise<void>((done, fail) => {
      const req = request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? done() : fail(new Error(`GET ${path}: ${res.statusCode}`))));
      });
      req.on('error', fail);
      req.end();
    });
  const worker = async () => {
    while (next < count) await one(paths[next++ % paths.length]);
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
 * (`--separate-threads`), named `<prefix>.<pid>.1-<thread>`, the main thread 01.
 */
function dumpedInstructions(outPrefix: string, pid: number): Counted {
  const dir = tmpdir();
  const dump = `${outPrefix}.${pid}.1-`;
  const threads = readdirSync(dir)
    .map((file) => join(dir, file))
    .filter((file) => file.startsWith(dump));
  if (threads.length === 0) throw new Error('callgrind wrote no dump');
  const summary = (file: string) => {
    const line = /^summary:\s+(\d+)/m.exec(readFileSync(file, 'utf8'));
    if (!line) throw new Error(`no summary line in ${file}`);
    return Number(line[1]);
  };
  return { main: summary(`${dump}01`), all: threads.reduce((sum, file) => sum + summary(file), 0) };
}

function report(counted: Counted): void {
  const each = (n: number) => Math.round(n / REQUESTS).toLocaleString('en-US');
  const lines = [
    '',
    `Instructions of the built API (${API_MAIN.slice(ROOT.length + 1)}) a GET payment, callgrind; ${REQUESTS} GETs counted after ${WARM_UP} uncounted, ${CONCURRENCY} at a time; ${rateLimitStore()}; Node ${process.version}`,
    '',
    '| threads | instructions counted | a GET |',
    '|---|---:|---:|',
    `| main thread | ${counted.main.toLocaleString('en-US')} | **${each(counted.main)}** |`,
    `| every thread (V8's compiler and collector threads too) | ${counted.all.toLocaleString('en-US')} | ${each(counted.all)} |`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function log(line: string): void {
  process.stderr.write(`[bench:instructions] ${line}\n`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
