import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult } from '../bench-support';
import { pgbenchVerifyScript } from './verify-script';

export interface PgbenchOptions {
  connections: number;
  seconds: number;
  /** Reference prefix and sequence of the prepared payments this run verifies (one per transaction). */
  prefix: string;
  sequence: string;
}

/**
 * `pgbench -n -M prepared -c N -j 2 -T s -f <verify script>`: transactions per second, and p50/p99
 * from the per-transaction log (-l), in milliseconds. Prepared, because the gateway's hot statements
 * and the bare server's are named ones, parsed once per connection: with `-M extended` pgbench
 * plans every statement of every transaction, and measured that instead (403 against 591
 * transactions a second in one run).
 */
export function runPgbench(databaseUrl: string, options: PgbenchOptions): Promise<Omit<LoadResult, 'label'>> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-pgbench-'));
  const script = join(dir, 'verify.sql');
  writeFileSync(script, pgbenchVerifyScript());
  const args = ['-n', '-M', 'prepared', '-c', String(options.connections), '-j', '2', '-T', String(options.seconds)];
  args.push('-D', `prefix=${options.prefix}`, '-D', `sequence=${options.sequence}`, '-f', script, '-l', '--log-prefix', join(dir, 'tx'), databaseUrl);
  return new Promise((done, fail) => {
    execFile('pgbench', args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      try {
        if (error) return fail(new Error(`pgbench failed: ${stderr || error.message}`));
        const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout);
        const failed = /number of failed transactions: (\d+)/.exec(stdout);
        const latencies: number[] = [];
        for (const file of readdirSync(dir).filter((f) => f.startsWith('tx'))) {
          for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
            const microseconds = Number(line.split(' ')[2]);
            if (line && Number.isFinite(microseconds)) latencies.push(microseconds / 1000);
          }
        }
        latencies.sort((a, b) => a - b);
        const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 100) / 100;
        done({ requests: latencies.length, rps: Math.round(Number(tps?.[1] ?? NaN)), p50: at(0.5), p99: at(0.99), errors: Number(failed?.[1] ?? 0), non2xx: 0 });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
