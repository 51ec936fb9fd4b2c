import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Samples a second per CPU: a prime, so the sampling does not beat with a periodic timer of the server's. */
const SAMPLES_PER_SECOND = 499;
/** Bytes of each sampled thread's stack perf copies, for unwinding without frame pointers (Debian's build has none). */
const STACK_BYTES = 32_768;

/**
 * What a PostgreSQL backend does, as named by the functions on its stack. A sample counts in every
 * row one of whose functions is on its stack, so rows overlap (index inserts happen inside the
 * executor, a COPY's inside the COPY): each row is its own share of the whole, not a part of a sum.
 */
export const PG_ACTIVITIES: ReadonlyArray<{ label: string; functions: readonly string[] }> = [
  { label: 'parsing and analysis of statements sent as text', functions: ['pg_parse_query', 'parse_analyze_fixedparams', 'parse_analyze_varparams'] },
  { label: 'planning (custom plans, statements sent as text)', functions: ['pg_plan_queries'] },
  { label: 'a cached plan checked and its tables locked (GetCachedPlan)', functions: ['GetCachedPlan'] },
  { label: 'executor start: the plan tree set up for one run', functions: ['standard_ExecutorStart'] },
  { label: 'executor run and finish: the rows read and written', functions: ['standard_ExecutorRun', 'standard_ExecutorFinish'] },
  { label: 'CHECK constraints (their expressions read and prepared each statement)', functions: ['ExecConstraints'] },
  { label: 'index entries written', functions: ['ExecInsertIndexTuples'] },
  { label: '… B-tree', functions: ['btinsert'] },
  { label: '… GIN (pending list and its clean-up)', functions: ['gininsert'] },
  { label: '… GiST', functions: ['gistinsert'] },
  { label: 'foreign keys and other after-triggers', functions: ['AfterTriggerEndQuery'] },
  { label: 'PL/pgSQL functions', functions: ['plpgsql_call_handler'] },
  { label: 'COPY (the request log)', functions: ['DoCopy'] },
  { label: '… its values parsed (jsonb, uuid, timestamps)', functions: ['NextCopyFrom'] },
  { label: 'executor end', functions: ['standard_ExecutorEnd'] },
  { label: 'commit', functions: ['CommitTransactionCommand'] },
  { label: '… WAL flushed to disk', functions: ['XLogFlush'] },
  { label: 'reading from clients', functions: ['secure_read'] },
  { label: 'writing to clients', functions: ['secure_write'] },
];

/** One sampled stack, leaf first: the named functions only (perf prints `[unknown]` for static ones it cannot name). */
export type Stack = string[];

export interface PgProfile {
  /** How long the processes were sampled. */
  seconds: number;
  samples: number;
  /** CPU time the samples stand for: samples ÷ the sampling rate. */
  cpuSeconds: number;
  /** Share of the samples in each of PG_ACTIVITIES, in its order. */
  activities: Array<{ label: string; share: number }>;
  /** The functions on the most stacks, below the ones every sample shares (main, PostgresMain). */
  top: Array<{ name: string; share: number }>;
}

/** A finished perf recording of PostgreSQL's processes, read by readPostgresProfile. */
export interface PostgresRecording {
  directory: string;
  seconds: number;
}

/**
 * Records PostgreSQL's CPU for `seconds` with Linux perf, from every process named `postgres` on
 * this machine (the benchmarks' server is local): where its time goes by function, which
 * `pg_stat_statements` does not show (a statement's set-up, its constraints, a COPY's indexes).
 * Only the sampling happens now; reading the samples (readPostgresProfile) takes a few seconds of
 * CPU, to be spent once the measured window is over. Needs `perf` (Debian: apt-get install
 * linux-perf) and the right to profile those processes (root, or kernel.perf_event_paranoid ≤ 1
 * for the server's own user). Backends started after the recording began are not sampled.
 */
export async function recordPostgres(seconds: number): Promise<PostgresRecording> {
  const { stdout: pids } = await run('pgrep', ['-d', ',', '-x', 'postgres']).catch(() => ({ stdout: '' }));
  if (!pids.trim()) throw new Error('no process named postgres on this machine to profile');
  const directory = mkdtempSync(join(tmpdir(), 'pg-profile-'));
  try {
    await run('perf', ['record', '-q', '-F', String(SAMPLES_PER_SECOND), '--call-graph', `dwarf,${STACK_BYTES}`, '-p', pids.trim(), '-o', join(directory, 'perf.data'), '--', 'sleep', String(seconds)]);
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  return { directory, seconds };
}

/** The recording's activities and `top` functions; its files are removed. */
export async function readPostgresProfile(recording: PostgresRecording, top = 25): Promise<PgProfile> {
  try {
    const { stdout } = await run('perf', ['script', '-i', join(recording.directory, 'perf.data'), '-F', 'comm,ip,sym'], { maxBuffer: 1024 * 1024 * 1024 });
    return summarize(parsePerfScript(stdout), recording.seconds, top);
  } finally {
    rmSync(recording.directory, { recursive: true, force: true });
  }
}

/**
 * The stacks of `perf script -F comm,ip,sym`: each sample is a line with the process's name, then
 * one indented line a frame (`<address> <function>`), then a blank line.
 */
export function parsePerfScript(text: string): Stack[] {
  const stacks: Stack[] = [];
  let current: Stack | null = null;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (!/^\s/.test(line)) {
      current = [];
      stacks.push(current);
      continue;
    }
    const name = line.trim().split(/\s+/).slice(1).join(' ');
    if (current && name && name !== '[unknown]') current.push(name);
  }
  return stacks;
}

/** Each activity's share of the samples, and the `top` functions by the share of stacks they are on. */
export function summarize(stacks: Stack[], seconds: number, top: number): PgProfile {
  const onStacks = new Map<string, number>();
  for (const stack of stacks) for (const name of new Set(stack)) onStacks.set(name, (onStacks.get(name) ?? 0) + 1);
  const share = (count: number) => (stacks.length === 0 ? 0 : count / stacks.length);
  const activities = PG_ACTIVITIES.map(({ label, functions }) => ({
    label,
    share: share(stacks.filter((stack) => stack.some((name) => functions.includes(name))).length),
  }));
  // Frames nearly every sample has (the process's entry points) say nothing about where time goes.
  const ranked = [...onStacks].filter(([, count]) => share(count) < 0.95).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return {
    seconds,
    samples: stacks.length,
    cpuSeconds: stacks.length / SAMPLES_PER_SECOND,
    activities,
    top: ranked.slice(0, top).map(([name, count]) => ({ name, share: share(count) })),
  };
}

export function printPgProfile(profile: PgProfile): void {
  const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
  console.log(
    `\nPostgreSQL by activity: ${profile.samples} samples of its processes over ${profile.seconds} s (${profile.cpuSeconds.toFixed(1)} CPU-seconds), Linux perf; ` +
      'a sample counts in every row whose function is on its stack, so rows overlap. perf copies each sample\'s stack, so the run is slower while it samples.\n',
  );
  console.log('| activity | share of PostgreSQL\'s CPU |\n|---|---:|');
  for (const { label, share } of profile.activities) console.log(`| ${label} | ${percent(share)} |`);
  console.log('\n| function (with what it called) | share |\n|---|---:|');
  for (const { name, share } of profile.top) console.log(`| ${name} | ${percent(share)} |`);
}
