import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { BUILT_API_MAIN, cpuMs, freePort, PRODUCTION_HEAP_FLAGS, ROOT, rssMiB, stopChild, waitUntilReady } from './bench-processes';
import { benchGatewayEnv, benchSecrets, NO_PROVIDER_URL, rateLimitStore } from './bench-support';

/**
 * `npm run bench:startup`: how long the built API takes to be ready, as production starts it
 * (docker/Dockerfile.api's command: `node` with the production heap flags on the compiled main),
 * against a migrated database: from the process's spawn until `GET /ready` answers 200. The
 * performance issue's goal 4 asks for under 2 s. Prints every start's wall time, the CPU the
 * process had used by then and its RSS, then the median. Build first: `npx nx run api:build`.
 *
 * BENCH_STARTS: measured starts (7). One start before them is not measured: it reads the files
 * into the page cache, which a restarted production instance finds there too. BENCH_API_MAIN:
 * another build's main. BENCH_CPU_PROF=<dir>: every start writes a V8 CPU profile there when it
 * stops (`--cpu-prof`; read it with tools/bench/cpuprofile-top.ts); the figures are then the
 * profiler's too.
 */
const STARTS = Number(process.env.BENCH_STARTS ?? 7);
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF;
const GOAL_MS = 2000;
/** How often `/ready` is asked: the wall time's resolution. */
const POLL_MS = 10;

interface Start {
  wallMs: number;
  cpuMs: number;
  rssMiB: number;
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server the benchmark may create a database on.');
  if (!existsSync(BUILT_API_MAIN)) throw new Error(`${BUILT_API_MAIN} is missing; run npx nx run api:build first.`);
  const loadBefore = loadavg();
  const databaseUrl = await createTestDatabase('bench_startup', serverUrl);
  try {
    // The provider is not called while the API starts.
    const env = benchGatewayEnv(databaseUrl, NO_PROVIDER_URL, benchSecrets());
    log('one start to warm the page cache (not measured)…');
    await startOnce(env);
    const starts: Start[] = [];
    for (let i = 1; i <= STARTS; i++) {
      starts.push(await startOnce(env));
      log(`start ${i}/${STARTS}: ${starts[i - 1].wallMs} ms`);
    }
    report(starts, loadBefore);
  } finally {
    await dropTestDatabase(databaseUrl, serverUrl);
  }
}

/** Starts the built API, waits for `/ready`, reads what it cost, and stops it. */
async function startOnce(gatewayEnv: Record<string, string>): Promise<Start> {
  const port = await freePort();
  const env = { ...process.env, ...gatewayEnv, API_HOST: '127.0.0.1', API_PORT: String(port), LOG_LEVEL: 'warn' };
  const started = performance.now();
  const profile = CPU_PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROFILE_DIR] : [];
  const child = spawn(process.execPath, [...PRODUCTION_HEAP_FLAGS, ...profile, BUILT_API_MAIN], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitUntilReady(child, `http://127.0.0.1:${port}`, { timeoutMs: 60_000, pollMs: POLL_MS });
    return { wallMs: Math.round(performance.now() - started), cpuMs: cpuMs(child), rssMiB: Math.round(rssMiB(child)) };
  } finally {
    await stopChild(child);
  }
}

function report(starts: Start[], loadBefore: number[]): void {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2);
  };
  const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(' ');
  const wall = median(starts.map((s) => s.wallMs));
  const lines = [
    '',
    `Start-up of the built API (${BUILT_API_MAIN.slice(ROOT.length + 1)}, production heap flags, a migrated database, ${rateLimitStore()}): ${STARTS} starts after one unmeasured; Node ${process.version}, ${cpus().length} cores; load average ${load(loadBefore)} before, ${load(loadavg())} after`,
    '',
    '| start | wall ms until /ready answers | CPU ms by then (10 ms steps) | RSS at ready, MiB |',
    '|---|---:|---:|---:|',
    ...starts.map((s, i) => `| ${i + 1} | ${s.wallMs} | ${s.cpuMs} | ${s.rssMiB} |`),
    `| **median** | **${wall}** | **${median(starts.map((s) => s.cpuMs))}** | **${median(starts.map((s) => s.rssMiB))}** |`,
    '',
    `Built API ready: median ${wall} ms (goal: under ${GOAL_MS} ms): ${wall < GOAL_MS ? 'met' : 'NOT met'}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function log(line: string): void {
  process.stderr.write(`[bench:startup] ${line}\n`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
