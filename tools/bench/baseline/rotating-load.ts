import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult } from '../bench-support';

/** One request of a rotation: sent once each (verify needs a fresh payment per request). */
export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface RotatingLoadOptions {
  connections: number;
  durationSeconds: number;
  /**
   * Stop when every request was sent once instead of wrapping round: for requests that must each
   * be new (a second verify of a payment is a cheap no-op and would flatter the figure).
   */
  once?: boolean;
}

export interface RotatingLoadResult extends LoadResult {
  /** True when `once` was set and every request of the rotation was used before the time was up. */
  exhausted: boolean;
}

/**
 * autocannon in its own process (like bench-support's load()), sending a different request each
 * time: `requests` are handed out in order, round-robin over the connections. Exact percentiles of
 * the 2xx responses; req/s is every response divided by the measured wall time.
 */
export function loadRotating(label: string, baseUrl: string, requests: BenchRequest[], options: RotatingLoadOptions): Promise<RotatingLoadResult> {
  if (!requests.length) throw new Error(`${label}: no requests`);
  const dir = mkdtempSync(join(tmpdir(), 'bench-payments-'));
  const file = join(dir, 'requests.json');
  writeFileSync(file, JSON.stringify(requests));
  const job = JSON.stringify({ url: baseUrl, connections: options.connections, duration: options.durationSeconds, once: options.once ?? false, file });
  return new Promise<RotatingLoadResult>((done, fail) => {
    execFile(process.execPath, ['-e', ROTATING_WORKER, job], { cwd: __dirname, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      rmSync(dir, { recursive: true, force: true });
      if (error) return fail(new Error(`load generator failed: ${stderr || error.message}`));
      done({ label, ...(JSON.parse(stdout) as Omit<RotatingLoadResult, 'label'>) });
    });
  });
}

/** Plain JavaScript, run with `node -e` (no TypeScript loader in the load generator's process). */
const ROTATING_WORKER = `
const autocannon = require(require.resolve('autocannon', { paths: [process.cwd()] }));
const { readFileSync } = require('node:fs');
const job = JSON.parse(process.argv[1]);
const list = JSON.parse(readFileSync(job.file, 'utf8'));
let next = 0;
let exhausted = false;
const times = [];
const started = process.hrtime.bigint();
const instance = autocannon({
  url: job.url,
  connections: job.connections,
  duration: job.duration,
  requests: [{
    setupRequest: (request) => {
      if (job.once && next >= list.length && !exhausted) {
        // Every request was used: stop now (the few in flight repeat one, a cheap no-op).
        exhausted = true;
        setImmediate(() => instance.stop());
      }
      const r = list[next++ % list.length];
      return { ...request, method: r.method, path: r.path, headers: { ...(r.body ? { 'content-type': 'application/json' } : {}), ...(r.headers || {}) }, body: r.body };
    },
  }],
}, (error, result) => {
  if (error) { console.error(error); process.exit(1); }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  times.sort((a, b) => a - b);
  const at = (q) => (times.length ? Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] * 100) / 100 : NaN);
  process.stdout.write(JSON.stringify({
    requests: result.requests.total,
    rps: Math.round(result.requests.total / seconds),
    p50: at(0.5),
    p99: at(0.99),
    errors: result.errors,
    non2xx: result.non2xx,
    exhausted,
  }));
});
instance.on('response', (_client, statusCode, _bytes, responseTime) => {
  if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
});
`;
