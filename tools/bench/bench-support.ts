import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export interface LoadResult {
  label: string;
  requests: number;
  rps: number;
  /** Latency percentiles of the 2xx responses, in milliseconds with 0.01 ms resolution. */
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** CPU time (user + system) the measuring process spent per request, in microseconds, when measured. */
  cpuUsPerRequest?: number;
}

interface LoadOptions {
  connections?: number;
  durationSeconds?: number;
  headers?: Record<string, string>;
  method?: string;
  body?: string;
}

/**
 * Runs autocannon in its own process (so the load generator does not steal the event loop of the
 * servers being measured) and returns the figures we report. Percentiles are computed from every
 * response time autocannon measured (its own histogram rounds to whole milliseconds, too coarse
 * for differences below 1 ms).
 */
export function load(label: string, url: string, options: LoadOptions = {}): Promise<LoadResult> {
  const job = JSON.stringify({ url, connections: options.connections ?? 32, duration: options.durationSeconds ?? 10, ...pick(options) });
  return new Promise((done, fail) => {
    execFile(process.execPath, ['-e', LOAD_WORKER, job], { cwd: __dirname, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return fail(new Error(`load generator failed: ${stderr || error.message}`));
      done({ label, ...(JSON.parse(stdout) as Omit<LoadResult, 'label'>) });
    });
  });
}

function pick({ headers, method, body }: LoadOptions) {
  return {
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    method: method ?? 'GET',
    ...(body ? { body } : {}),
  };
}

/** Plain JavaScript, run with `node -e` (no TypeScript loader in the load generator's process). */
const LOAD_WORKER = `
const autocannon = require(require.resolve('autocannon', { paths: [process.cwd()] }));
const job = JSON.parse(process.argv[1]);
const times = [];
const instance = autocannon(job, (error, result) => {
  if (error) { console.error(error); process.exit(1); }
  times.sort((a, b) => a - b);
  const at = (q) => (times.length ? Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] * 100) / 100 : NaN);
  process.stdout.write(JSON.stringify({
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: at(0.5),
    p99: at(0.99),
    errors: result.errors,
    non2xx: result.non2xx,
  }));
});
instance.on('response', (_client, statusCode, _bytes, responseTime) => {
  if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
});
`;

/**
 * Like load(), also measuring the CPU time this process (the one hosting the servers under test)
 * spends per request: the cost of the code path, independent of how the two cores are shared.
 */
export async function loadMeasuringCpu(label: string, url: string, options: LoadOptions = {}): Promise<LoadResult> {
  const before = process.cpuUsage();
  const result = await load(label, url, options);
  const used = process.cpuUsage(before);
  return { ...result, cpuUsPerRequest: Math.round((used.user + used.system) / Math.max(1, result.requests)) };
}

/** The run with the median p50 (ties: the lower p99), so one disturbed run does not decide. */
export function medianResult(runs: LoadResult[]): LoadResult {
  if (!runs.length) throw new Error('no runs');
  const sorted = [...runs].sort((a, b) => a.p50 - b.p50 || a.p99 - b.p99);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

export function printTable(results: LoadResult[]): void {
  console.log('\n| scenario | req/s | p50 ms | p99 ms | server CPU µs/req | non-2xx | errors |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(`| ${r.label} | ${r.rps} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.cpuUsPerRequest ?? '–'} | ${r.non2xx} | ${r.errors} |`);
  }
}

/**
 * Light load on `connections` keep-alive connections, each sending its next request a random
 * 0–2·`meanGapMs` after the previous answer, so requests seldom queue behind each other (autocannon
 * fires every connection at once on each tick, and a saturated server measures its queue, not the
 * work a request costs). Percentiles of the time from send to the full response; in its own
 * process, like load().
 */
export function paced(label: string, url: string, options: { connections: number; durationSeconds: number; meanGapMs: number; headers?: Record<string, string> }): Promise<LoadResult> {
  const job = JSON.stringify({ url, ...options });
  return new Promise((done, fail) => {
    execFile(process.execPath, ['-e', PACED_WORKER, job], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return fail(new Error(`paced load failed: ${stderr || error.message}`));
      done({ label, ...(JSON.parse(stdout) as Omit<LoadResult, 'label'>) });
    });
  });
}

const PACED_WORKER = `
const http = require('node:http');
const job = JSON.parse(process.argv[1]);
const target = new URL(job.url);
const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
const times = [];
let errors = 0, non2xx = 0;
const end = Date.now() + job.durationSeconds * 1000;
const once = () => new Promise((resolve) => {
  const started = process.hrtime.bigint();
  const req = http.request({ agent, host: target.hostname, port: target.port, path: target.pathname + target.search, headers: job.headers || {} }, (res) => {
    res.resume();
    res.on('end', () => {
      if (res.statusCode >= 200 && res.statusCode < 300) times.push(Number(process.hrtime.bigint() - started) / 1e6); else non2xx++;
      resolve();
    });
  });
  req.on('error', () => { errors++; resolve(); });
  req.end();
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const worker = async () => { while (Date.now() < end) { await once(); await sleep(Math.random() * 2 * job.meanGapMs); } };
Promise.all(Array.from({ length: job.connections }, worker)).then(() => {
  times.sort((a, b) => a - b);
  const at = (q) => (times.length ? Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] * 100) / 100 : NaN);
  process.stdout.write(JSON.stringify({ requests: times.length, rps: Math.round(times.length / job.durationSeconds), p50: at(0.5), p99: at(0.99), errors, non2xx }));
  agent.destroy();
});
`;

/**
 * Where the API started by a benchmark counts its rate limits: it inherits REDIS_URL from the
 * benchmark's environment. Printed with the figures, since counting in Redis costs a request two
 * round trips to it (docs/benchmarks.md, "Full payment flow").
 */
export function rateLimitStore(): string {
  return process.env.REDIS_URL ? 'rate limits counted in Redis (REDIS_URL)' : 'rate limits counted in memory (no REDIS_URL)';
}

/** Provider secret keys for one run: random, so no fixture holds a key-shaped constant. */
export function benchSecrets(): { test: string; live: string } {
  return { test: `sk_test_bench_${randomBytes(8).toString('hex')}`, live: `sk_live_bench_${randomBytes(8).toString('hex')}` };
}

/** A provider URL nothing listens on, for a benchmark whose API never calls the provider. */
export const NO_PROVIDER_URL = 'http://127.0.0.1:9';

/**
 * The environment of a gateway under a benchmark: production mode, this run's database, the
 * simulator as both modes' provider, and rate limits too high ever to refuse, so every request
 * goes the whole way (counting included).
 */
export function benchGatewayEnv(databaseUrl: string, simUrl: string, secrets: { test: string; live: string }): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    ENCRYPTION_KEYS: `bench:${Buffer.alloc(32, 7).toString('base64')}`,
    PROVIDER_TEST_BASE_URL: simUrl,
    PROVIDER_LIVE_BASE_URL: simUrl,
    PROVIDER_TEST_SECRET_KEY: secrets.test,
    PROVIDER_LIVE_SECRET_KEY: secrets.live,
    RATE_LIMIT_TEST_PER_SECOND: '1000000',
    RATE_LIMIT_LIVE_PER_SECOND: '1000000',
    RATE_LIMIT_IP_PER_SECOND: '1000000',
  };
}
