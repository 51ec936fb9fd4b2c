import 'reflect-metadata';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createApiApp } from '@gateway/api';
import { ApiKeysService } from '@gateway/domain/api-keys';
import { DevelopersService } from '@gateway/domain/developers';
import { loadConfig } from '@gateway/platform';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { type LoadResult, paced } from './bench-support';

/**
 * What oversized request bodies from one tenant cost every other tenant (issue: a 10,000-item
 * bulk body held the event loop ~0.5 s, and six clients sending two a second pushed another
 * tenant's GET /payments/?limit=1 from ~20 ms to seconds).
 *
 * For each kind of body, ATTACKERS clients with one test key each send it RATE times a second
 * (never more than one in flight per client) while another tenant reads GET /payments/?limit=1 at
 * light load; reported: that tenant's p50/p99, the longest the API's event loop was held, and how
 * the attackers were answered. First a quiet run (no attackers) as the baseline.
 *
 * Processes (2 cores): the API in a child process (`--serve-api`, measuring its own event-loop
 * delay); the victim's paced load in another (bench-support); the attackers in this process.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:oversized-bodies
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ATTACKERS = Number(process.env.BENCH_ATTACKERS ?? 6);
const RATE = Number(process.env.BENCH_ATTACK_RATE ?? 2);
const VICTIM_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const VICTIM_MEAN_GAP_MS = Number(process.env.BENCH_MEAN_GAP_MS ?? 50);
/** Comma-separated scenario ids (bulk, bulk-idempotent, bulk-1000, splits, deep): for running one. */
const ONLY = process.env.BENCH_ONLY?.split(',');

interface Attack {
  id: string;
  label: string;
  path: string;
  body: string;
  idempotent?: boolean;
}

const initializeItem = (i: number) => ({ type: 'initialize', amount: 1000, currency: 'NGN', email: `buyer-${i}@example.com` });

function attacks(): Attack[] {
  const bulk = JSON.stringify({ items: Array.from({ length: 10_000 }, (_, i) => initializeItem(i)) });
  const lastInvalid = Array.from({ length: 1000 }, (_, i) => initializeItem(i));
  lastInvalid[999] = { ...lastInvalid[999], email: 'not-an-email' };
  const splits = Array.from({ length: 25_000 }, (_, i) => ({ subaccount: `SUB_${i}`, share: 0.0001 }));
  const deep = `{"amount":1000,"email":"a@example.com","metadata":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
  const all: Attack[] = [
    { id: 'bulk', label: 'bulk, 10,000 items', path: '/api/v1/payments/bulk', body: bulk },
    { id: 'bulk-idempotent', label: 'bulk, 10,000 items, with Idempotency-Key', path: '/api/v1/payments/bulk', body: bulk, idempotent: true },
    { id: 'bulk-1000', label: 'bulk, 1,000 items, the last one invalid', path: '/api/v1/payments/bulk', body: JSON.stringify({ items: lastInvalid }) },
    { id: 'splits', label: 'initialize, 25,000 splits', path: '/api/v1/payments/initialize', body: JSON.stringify({ amount: 1000, email: 'a@example.com', splits }) },
    { id: 'deep', label: 'initialize, metadata nested 5,000 deep', path: '/api/v1/payments/initialize', body: deep },
  ];
  return all.filter((a) => !ONLY || ONLY.includes(a.id));
}

interface Row {
  label: string;
  bodyKb: number;
  victim: LoadResult;
  loopMaxMs: number;
  loopP99Ms: number;
  attackerStatuses: string;
  attackerP50Ms: number;
  attackerRequests: number;
  apiCpuPercent: number;
  /** API CPU time per attacker request, beyond what the victim's reads cost in the quiet run. */
  apiCpuMsPerAttack?: number;
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server the benchmark may create a database on.');
  const databaseUrl = await createTestDatabase('bench_oversized', serverUrl);
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    ENCRYPTION_KEYS: `bench:${Buffer.alloc(32, 7).toString('base64')}`,
    // Never called: every attack is refused before the provider; production refuses the simulator's values.
    PROVIDER_TEST_SECRET_KEY: 'bench-unused-test',
    PROVIDER_LIVE_SECRET_KEY: 'bench-unused-live',
    // Rate limits out of the way: this measures what a request costs, not how many are allowed.
    RATE_LIMIT_TEST_PER_SECOND: '1000000',
    RATE_LIMIT_IP_PER_SECOND: '1000000',
  };
  let api: ChildProcess | undefined;
  try {
    const [victimKey, ...attackerKeys] = await provisionKeys(env, 1 + ATTACKERS);
    const started = await startApi(env);
    api = started.child;
    const baseUrl = `http://127.0.0.1:${started.port}`;
    const victimUrl = `${baseUrl}/api/v1/payments?limit=1`;
    const victimHeaders = { authorization: `Bearer ${victimKey}` };
    log('warming up…');
    await paced('warm-up', victimUrl, { connections: VICTIM_CONNECTIONS, durationSeconds: 3, meanGapMs: VICTIM_MEAN_GAP_MS, headers: victimHeaders });

    const rows: Row[] = [];
    rows.push(await scenario(api, 'quiet (no attackers)', 0, victimUrl, victimHeaders, () => Promise.resolve([])));
    for (const attack of attacks()) {
      const bodyKb = Math.round(Buffer.byteLength(attack.body) / 1024);
      rows.push(await scenario(api, attack.label, bodyKb, victimUrl, victimHeaders, (until) => Promise.all(attackerKeys.map((key) => attackLoop(baseUrl, attack, key, until))).then((r) => r.flat())));
    }
    const quiet = rows[0];
    for (const row of rows.slice(1)) {
      const extraCpuMs = ((row.apiCpuPercent - quiet.apiCpuPercent) / 100) * SECONDS * 1000;
      // Below the quiet run's share (timer resolution, fewer victim reads): nothing measurable.
      row.apiCpuMsPerAttack = row.attackerRequests ? Math.max(0, extraCpuMs / row.attackerRequests) : undefined;
    }
    report(rows);
  } finally {
    if (api) await stopApi(api);
    await dropTestDatabase(databaseUrl, serverUrl);
  }
}

/** One run: the victim's paced reads, with `attackers` sending at the same time. */
async function scenario(
  api: ChildProcess,
  label: string,
  bodyKb: number,
  victimUrl: string,
  victimHeaders: Record<string, string>,
  attackers: (until: number) => Promise<Answer[]>,
): Promise<Row> {
  log(`${label}…`);
  await askApi(api, 'reset');
  const cpuBefore = cpuTicks(api);
  const startedAt = Date.now();
  const [victim, answers] = await Promise.all([
    paced(label, victimUrl, { connections: VICTIM_CONNECTIONS, durationSeconds: SECONDS, meanGapMs: VICTIM_MEAN_GAP_MS, headers: victimHeaders }),
    attackers(startedAt + SECONDS * 1000),
  ]);
  const elapsedSeconds = (Date.now() - startedAt) / 1000;
  const cpuPercent = ((cpuTicks(api) - cpuBefore) / CLOCK_TICKS_PER_SECOND / elapsedSeconds) * 100;
  const loop = await askApi(api, 'report');
  const statuses = new Map<string, number>();
  for (const a of answers) statuses.set(a.outcome, (statuses.get(a.outcome) ?? 0) + 1);
  const times = answers.map((a) => a.ms).sort((x, y) => x - y);
  return {
    label,
    bodyKb,
    victim,
    loopMaxMs: loop.maxMs,
    loopP99Ms: loop.p99Ms,
    attackerStatuses: [...statuses].map(([outcome, n]) => `${n}× ${outcome}`).join(', ') || '–',
    attackerP50Ms: times.length ? times[Math.floor(times.length / 2)] : NaN,
    attackerRequests: answers.length,
    apiCpuPercent: cpuPercent,
  };
}

interface Answer {
  outcome: string;
  ms: number;
}

/** One client: sends the body, waits for the answer, keeps to RATE a second, until `until`. */
async function attackLoop(baseUrl: string, attack: Attack, key: string, until: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  const interval = 1000 / RATE;
  while (Date.now() < until) {
    const sentAt = Date.now();
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    if (attack.idempotent) headers['idempotency-key'] = randomUUID();
    try {
      const response = await fetch(`${baseUrl}${attack.path}`, { method: 'POST', headers, body: attack.body });
      const body = (await response.json().catch(() => ({}))) as { code?: string };
      answers.push({ outcome: `${response.status} ${body.code ?? ''}`.trim(), ms: Date.now() - sentAt });
    } catch {
      answers.push({ outcome: 'network error', ms: Date.now() - sentAt });
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, interval - (Date.now() - sentAt))));
  }
  return answers;
}

function report(rows: Row[]): void {
  console.log(
    `\n${ATTACKERS} attackers × ${RATE}/s each (one request in flight per attacker); victim: ${VICTIM_CONNECTIONS} connections, 0–${2 * VICTIM_MEAN_GAP_MS} ms between requests; ${SECONDS} s per run; Node ${process.version}`,
  );
  console.log(
    '\n| attack body | KiB | victim GET /payments?limit=1 p50 ms | p99 ms | victim req | API event loop held, max ms | loop delay p99 ms | API CPU % | API CPU ms per attack | attackers answered | attacker p50 ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const perAttack = r.apiCpuMsPerAttack === undefined ? '–' : r.apiCpuMsPerAttack.toFixed(1);
    console.log(
      `| ${r.label} | ${r.bodyKb || '–'} | ${r.victim.p50.toFixed(1)} | ${r.victim.p99.toFixed(1)} | ${r.victim.requests} | ${r.loopMaxMs.toFixed(1)} | ${r.loopP99Ms.toFixed(1)} | ${Math.round(r.apiCpuPercent)} | ${perAttack} | ${r.attackerStatuses} | ${Number.isNaN(r.attackerP50Ms) ? '–' : r.attackerP50Ms} |`,
    );
  }
  console.log('\n"API event loop held": the longest a 1 ms timer in the API process was late (includes time the OS did not run the process).');
}

/** A developer and an unscoped test secret key per tenant, through the real services. */
async function provisionKeys(env: Record<string, string>, count: number): Promise<string[]> {
  const app = await createApiApp({ config: loadConfig(env), databaseUrl: env.DATABASE_URL, logger: false });
  try {
    const developers = app.get(DevelopersService, { strict: false });
    const keys = app.get(ApiKeysService, { strict: false });
    const secrets: string[] = [];
    for (let i = 0; i < count; i++) {
      const developer = await developers.create({ email: `tenant-${i}@example.com`, name: `Tenant ${i}`, emailVerified: true });
      secrets.push((await keys.issue({ developerId: developer.id, mode: 'test', kind: 'secret' })).secret);
    }
    return secrets;
  } finally {
    await app.close();
  }
}

const CLOCK_TICKS_PER_SECOND = 100;

/** user + system CPU time of a child process, in clock ticks (Linux /proc). */
function cpuTicks(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid as number}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

async function startApi(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', __filename, '--serve-api'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const port = await new Promise<number>((done, fail) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\d+)/.exec(output);
      if (match) done(Number(match[1]));
    });
    child.once('exit', (code) => fail(new Error(`the API exited (${code}) before listening`)));
  });
  return { child, port };
}

async function stopApi(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((done) => setTimeout(done, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** The API child's event-loop delay since the last reset (`report`), or a reset. */
function askApi(child: ChildProcess, command: 'reset' | 'report'): Promise<{ maxMs: number; p99Ms: number }> {
  return new Promise((done) => {
    child.once('message', (answer) => done(answer as { maxMs: number; p99Ms: number }));
    child.send(command);
  });
}

/** `--serve-api`: the real API in this (child) process, on a free loopback port, timing its own event loop. */
async function serveApi(): Promise<void> {
  const config = loadConfig(process.env);
  const app = await createApiApp({ config, databaseUrl: config.database.url as string, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  process.on('message', (command) => {
    if (command === 'reset') loop.reset();
    process.send?.({ maxMs: loop.max / 1e6, p99Ms: loop.percentile(99) / 1e6 });
  });
  process.stdout.write(`READY ${(app.getHttpServer().address() as { port: number }).port}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

function log(line: string): void {
  process.stderr.write(`[bench:oversized-bodies] ${line}\n`);
}

const entry = process.argv.includes('--serve-api') ? serveApi : main;
void entry().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
