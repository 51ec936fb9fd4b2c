import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { type BenchRequest, loadRotating, type RotatingLoadResult } from './baseline/rotating-load';

/**
 * The processes of a benchmark: servers started as children (each on its own event loop, as in
 * production), what they cost read from Linux /proc, and how they are stopped.
 */

export const ROOT = resolve(__dirname, '../..');
/** The real API in a child process (`tools/bench/serve-api.ts`), for startChild. */
export const SERVE_API = resolve(__dirname, 'serve-api.ts');
/**
 * The compiled API's main (`npx nx run api:build`), as production runs it; BENCH_API_MAIN: another
 * build's main (e.g. one compiled with `--outDir tmp/…`, to compare two builds).
 */
export const BUILT_API_MAIN = resolve(ROOT, process.env.BENCH_API_MAIN ?? 'dist/apps/api/apps/api/src/main.js');
/** The heap settings production starts the built API with (docker/Dockerfile.api's command). */
export const PRODUCTION_HEAP_FLAGS = ['--max-old-space-size=512', '--max-semi-space-size=16'];

const CLOCK_TICKS_PER_SECOND = 100;

/** user + system CPU time a process has used so far, in milliseconds (10 ms resolution). */
export function cpuMs(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid as number}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * What the whole machine has spent so far, in milliseconds of CPU summed over its cores: `busy`
 * (user, nice, system, irq, softirq, steal — every process and the kernel) and, of it, PostgreSQL's
 * (every process named `postgres` alive now: the server, its background workers and backends,
 * plus the time of the backends that have exited, which the server has reaped and counts as its
 * children's, so a connection that closes inside a window takes nothing with it), and Redis's
 * (processes named `redis-server`: the rate-limit counters when REDIS_URL is set). Linux only (`/proc`).
 */
export function machineCpuMs(): { busy: number; postgres: number; redis: number } {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  let postgres = 0;
  let redis = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const isPostgres = stat.includes('(postgres)');
      if (!isPostgres && !stat.includes('(redis-server)')) continue;
      // utime, stime, and cutime, cstime: the reaped children's (for the server, its ended backends).
      const fields = stat.split(') ')[1].split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      if (isPostgres) postgres += ticks;
      else redis += ticks;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  const ms = (ticks: number) => (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
  return { busy: ms(user + nice + system + irq + softirq + steal), postgres: ms(postgres), redis: ms(redis) };
}

/** The most resident memory the process has held since it started (VmHWM), in MiB. */
export function peakRssMiB(child: ChildProcess): number {
  return statusMiB(child, 'VmHWM');
}

/** The child's resident set now (`VmRSS`), in MiB. */
export function rssMiB(child: ChildProcess): number {
  return statusMiB(child, 'VmRSS');
}

function statusMiB(child: ChildProcess, field: 'VmHWM' | 'VmRSS'): number {
  const line = readFileSync(`/proc/${child.pid as number}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return line ? Number(/(\d+)/.exec(line)?.[1]) / 1024 : NaN;
}

/**
 * Starts `entry` under the TypeScript loader and resolves once its output matches `ready`
 * (the first group is the port it listens on): `READY <port>` by default.
 */
export async function startChild(
  children: ChildProcess[],
  args: string[],
  env: Record<string, string>,
  entry: string,
  nodeOptions: string[] = [],
  ready = /READY (\d+)/,
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [...nodeOptions, '-r', '@swc-node/register', entry, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const port = await new Promise<number>((done, fail) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) done(Number(match[1]));
    });
    child.once('exit', (code) => fail(new Error(`${entry} exited (${code}) before listening`)));
  });
  return { child, port };
}

/** SIGTERM, then SIGKILL if it has not exited within 10 s. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((done) => setTimeout(done, 10_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export interface SchedulerChild {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** The real scheduler app (`apps/scheduler/src/main.ts`), as `npm start` runs it; ready once its health endpoint answers. */
export async function startScheduler(env: Record<string, string>, nodeOptions: string[] = []): Promise<SchedulerChild> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...nodeOptions, '-r', '@swc-node/register', 'apps/scheduler/src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, SCHEDULER_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`scheduler exited: ${output}`);
    if (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      // The caller never gets this child to stop: do not leave it running.
      child.kill('SIGKILL');
      throw new Error(`scheduler did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  // Health answers once Nest is listening; the worker has connected by then (bootstrap hook).
  return {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Resolves once `GET <baseUrl>/ready` answers 200, asking every `pollMs`; fails if the child exits
 * first (with `output()`, when given, in the message) or after `timeoutMs`.
 */
export async function waitUntilReady(child: ChildProcess, baseUrl: string, options: { timeoutMs: number; pollMs: number; output?: () => string }): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (!(await fetch(`${baseUrl}/ready`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) throw new Error(`the API exited (${child.exitCode}) before it was ready${options.output ? `: ${options.output().slice(-2000)}` : ''}`);
    if (Date.now() > deadline) throw new Error(`the API was not ready within ${options.timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, options.pollMs));
  }
}

/** A loopback port free at the time of asking. */
export function freePort(): Promise<number> {
  const probe = createServer();
  return new Promise((done) =>
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => done(port));
    }),
  );
}

export interface MeasuredRun extends RotatingLoadResult {
  /** The server process's user + system CPU time per request, in microseconds. */
  cpuUsPerRequest: number;
  /** The whole machine's CPU per request (every process and the kernel: the load generator too), in microseconds. */
  machineUsPerRequest: number;
  /** PostgreSQL's share of it, in microseconds. */
  postgresUsPerRequest: number;
}

/**
 * Warm-up, then the measured run, of `requests` sent by autocannon to the server `server` runs:
 * with `once` (each request must be new, like a verify of a pending payment), the warm-up uses the
 * first quarter of them and the measured run the rest. Any non-2xx answer or error fails it.
 */
export async function measureRotating(
  server: ChildProcess,
  label: string,
  url: string,
  requests: BenchRequest[],
  options: {
    once: boolean;
    connections: number;
    seconds: number;
    warmUpSeconds: number;
    /** Runs between the warm-up and the measured load (e.g. ANALYZE, once the warm-up's rows are in). */
    afterWarmUp?: () => Promise<unknown>;
  },
): Promise<MeasuredRun> {
  const split = options.once ? Math.floor(requests.length / 4) : 0;
  const load = (name: string, list: BenchRequest[], seconds: number) => loadRotating(name, url, list, { connections: options.connections, durationSeconds: seconds, once: options.once });
  const warm = failOnErrors(await load(`warm-up ${label}`, options.once ? requests.slice(0, split) : requests, options.warmUpSeconds));
  await options.afterWarmUp?.();
  const before = cpuMs(server);
  const machineBefore = machineCpuMs();
  const result = failOnErrors(await load(label, options.once ? requests.slice(split) : requests, options.seconds));
  const machineAfter = machineCpuMs();
  const perRequest = (ms: number) => Math.round((ms * 1000) / Math.max(1, result.requests));
  return {
    ...result,
    cpuUsPerRequest: perRequest(cpuMs(server) - before),
    machineUsPerRequest: perRequest(machineAfter.busy - machineBefore.busy),
    postgresUsPerRequest: perRequest(machineAfter.postgres - machineBefore.postgres),
    exhausted: result.exhausted || warm.exhausted,
  };
}

function failOnErrors(result: RotatingLoadResult): RotatingLoadResult {
  if (result.non2xx || result.errors) throw new Error(`${result.label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result;
}
