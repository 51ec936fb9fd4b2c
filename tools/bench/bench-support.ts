import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

export interface LoadResult {
  label: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

const AUTOCANNON = resolve(__dirname, '../../node_modules/autocannon/autocannon.js');

/**
 * Runs autocannon in its own process (so the load generator does not steal the event loop of the
 * servers being measured) and returns the figures we report.
 */
export function load(
  label: string,
  url: string,
  options: { connections?: number; durationSeconds?: number; headers?: Record<string, string>; method?: string; body?: string } = {},
): Promise<LoadResult> {
  const args = [AUTOCANNON, '-j', '-c', String(options.connections ?? 32), '-d', String(options.durationSeconds ?? 10)];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`);
  if (options.method) args.push('-m', options.method);
  if (options.body) args.push('-b', options.body, '-H', 'content-type=application/json');
  args.push(url);
  return new Promise((done, fail) => {
    execFile(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      if (error) return fail(error);
      const result = JSON.parse(stdout) as {
        requests: { total: number; average: number };
        latency: { p50: number; p99: number };
        errors: number;
        non2xx: number;
      };
      done({
        label,
        requests: result.requests.total,
        rps: Math.round(result.requests.average),
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors,
        non2xx: result.non2xx,
      });
    });
  });
}

export function printTable(results: LoadResult[]): void {
  console.log('\n| scenario | req/s | p50 ms | p99 ms | non-2xx | errors |');
  console.log('|---|---|---|---|---|---|');
  for (const r of results) console.log(`| ${r.label} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} |`);
}
