import { type ChildProcess, spawn } from 'node:child_process';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApiApp } from '@gateway/api';
import { UsersService } from '@gateway/domain/identity';
import { loadConfig } from '@gateway/platform';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';

/**
 * A real user's portal sign-in latency while 60 loops of failed sign-ins flood the API
 * (issue 10, item 4: without protection it went from ~140 ms to ~5.5 s).
 *
 * Scenarios, each on a fresh API instance (fresh counters) against one database:
 * - "quiet": no flood;
 * - "one IP": 60 loops from one address — the per-IP limit of the credential routes
 *   (RATE_LIMIT_PORTAL_AUTH_PER_MINUTE, 10) refuses all but 10 of them with a cheap 429;
 * - "new IP each request": 60 loops whose every request comes from a new address (a botnet), so
 *   the per-IP limit never fires and only the bounded hashing queue protects;
 * - "unprotected": the same botnet flood with the limit and the queue set out of reach — what the
 *   gateway did before.
 *
 * The flood runs in its own process (so its requests do not steal the server's event loop); the
 * API sees client addresses through X-Forwarded-For from a trusted proxy (127.0.0.1). The real
 * user signs in with the right password every SAMPLE_GAP_MS from an address of its own (each
 * sample a different one: many real users), without waiting for the previous answer, so a slow
 * answer never thins the samples.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:login-flood
 *
 * RATE_LIMIT_PORTAL_AUTH_PER_MINUTE, PORTAL_PASSWORD_HASH_CONCURRENCY, PORTAL_PASSWORD_HASH_QUEUE and
 * the hash's cost (PORTAL_PASSWORD_HASH_MEMORY_KIB, _ITERATIONS, _PARALLELISM) from the environment
 * replace the defaults (the "unprotected" scenario still lifts the rate limit and the queue out of
 * reach); BENCH_ONLY=quiet,one-ip,botnet,unprotected runs a subset.
 */
const LOOPS = Number(process.env.BENCH_LOOPS ?? 60);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 2);
const SAMPLE_GAP_MS = Number(process.env.BENCH_SAMPLE_GAP_MS ?? 500);
const PASSWORD = 'correct horse battery staple';
const TUNABLE = [
  'RATE_LIMIT_PORTAL_AUTH_PER_MINUTE',
  'PORTAL_PASSWORD_HASH_CONCURRENCY',
  'PORTAL_PASSWORD_HASH_QUEUE',
  'PORTAL_PASSWORD_HASH_MEMORY_KIB',
  'PORTAL_PASSWORD_HASH_ITERATIONS',
  'PORTAL_PASSWORD_HASH_PARALLELISM',
];
/** Comma-separated scenario ids to run (quiet, one-ip, botnet, unprotected). */
const ONLY = process.env.BENCH_ONLY?.split(',');

type FloodMode = 'none' | 'one-ip' | 'rotating';

interface Scenario {
  id: 'quiet' | 'one-ip' | 'botnet' | 'unprotected';
  label: string;
  flood: FloodMode;
  env?: Record<string, string>;
}

const SCENARIOS: Scenario[] = [
  { id: 'quiet', label: 'quiet (no flood)', flood: 'none' },
  { id: 'one-ip', label: `${LOOPS} loops from one IP`, flood: 'one-ip' },
  { id: 'botnet', label: `${LOOPS} loops, a new IP each request`, flood: 'rotating' },
  {
    id: 'unprotected',
    label: `${LOOPS} loops, a new IP each request, unprotected`,
    flood: 'rotating',
    env: { RATE_LIMIT_PORTAL_AUTH_PER_MINUTE: '1000000', PORTAL_PASSWORD_HASH_QUEUE: '10000' },
  },
];

interface Samples {
  /** Times of the successful sign-ins, and of the refused ones (429/503: how fast a refusal is). */
  signedInMs: number[];
  refusedMs: number[];
  statuses: Record<string, number>;
}

interface FloodResult {
  perSecond: number;
  statuses: Record<string, number>;
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server the benchmark may create a database on.');
  const databaseUrl = await createTestDatabase('bench_login_flood', serverUrl);
  const baseEnv = {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    ENCRYPTION_KEYS: `bench:${Buffer.alloc(32, 7).toString('base64')}`,
    // Never called by this benchmark; production refuses the simulator's well-known values.
    PROVIDER_TEST_SECRET_KEY: 'bench-unused-test',
    PROVIDER_LIVE_SECRET_KEY: 'bench-unused-live',
    TRUSTED_PROXIES: '127.0.0.1',
    // The flood is of sign-ins: the general per-IP limit (200/s) must not be what refuses it.
    RATE_LIMIT_IP_PER_SECOND: '1000000',
    // The settings under test, when given, to try other values than the defaults.
    ...Object.fromEntries(TUNABLE.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : []))),
  };
  const rows: string[] = [];
  try {
    for (const scenario of SCENARIOS.filter((s) => !ONLY || ONLY.includes(s.id))) {
      const config = loadConfig({ ...baseEnv, ...scenario.env });
      const app = await createApiApp({ config, databaseUrl, logger: false });
      try {
        await app.listen({ host: '127.0.0.1', port: 0 });
        const baseUrl = urlOf(app);
        const email = `user-${Date.now()}@example.com`;
        await app.get(UsersService, { strict: false }).createPlatformUser({ email, name: 'Real user', password: PASSWORD, platformRole: 'admin' });
        const csrf = await preLoginCsrf(baseUrl);
        await signIn(baseUrl, csrf, email, PASSWORD, '203.0.113.1'); // warm the path once

        const flood = scenario.flood === 'none' ? undefined : startFlood(baseUrl, csrf, scenario.flood);
        await sleep(WARM_UP_SECONDS * 1000);
        const samples = await sampleRealUser(baseUrl, csrf, email);
        const flooded = flood ? await flood.stop() : undefined;
        const { concurrency, maxWaiting, memoryKiB, iterations, parallelism } = config.portal.passwordHashing;
        const settings = `${config.rateLimits.portalAuthPerMinute}/min, ${concurrency} hashing + ${maxWaiting} waiting, argon2id ${memoryKiB} KiB × ${iterations} × ${parallelism}`;
        rows.push(row(scenario.label, samples, flooded, settings));
      } finally {
        await app.close();
      }
    }
  } finally {
    await dropTestDatabase(databaseUrl, serverUrl);
  }
  console.log(`\nReal user's sign-in (right password) every ${SAMPLE_GAP_MS} ms for ${SECONDS} s, after ${WARM_UP_SECONDS} s of flood; Node ${process.version}`);
  console.log('\n| scenario | limits | sign-ins | signed in: p50 ms | p95 ms | max ms | real user answers | refused: max ms | flood req/s | flood answers |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const line of rows) console.log(line);
}

/** One sign-in every SAMPLE_GAP_MS for SECONDS, each from a new address, none waiting for another. */
async function sampleRealUser(baseUrl: string, csrf: Csrf, email: string): Promise<Samples> {
  const pending: Array<Promise<{ ms: number; status: number }>> = [];
  const count = Math.floor((SECONDS * 1000) / SAMPLE_GAP_MS);
  for (let i = 0; i < count; i++) {
    pending.push(signIn(baseUrl, csrf, email, PASSWORD, `203.0.113.${10 + (i % 240)}`));
    await sleep(SAMPLE_GAP_MS);
  }
  const done = await Promise.all(pending);
  const statuses: Record<string, number> = {};
  for (const { status } of done) statuses[status] = (statuses[status] ?? 0) + 1;
  return { signedInMs: done.filter((d) => d.status === 200).map((d) => d.ms), refusedMs: done.filter((d) => d.status !== 200).map((d) => d.ms), statuses };
}

interface Csrf {
  token: string;
  cookie: string;
}

/** A pre-login CSRF pair (double submit): reusable for every sign-in of the benchmark. */
async function preLoginCsrf(baseUrl: string): Promise<Csrf> {
  const response = await fetch(`${baseUrl}/api/portal/auth/csrf`);
  const body = (await response.json()) as { data: { csrf_token: string } };
  const cookie = response.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith('gw_csrf='));
  if (!cookie) throw new Error('no CSRF cookie');
  return { token: body.data.csrf_token, cookie };
}

async function signIn(baseUrl: string, csrf: Csrf, email: string, password: string, ip: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/portal/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrf.token, cookie: csrf.cookie, 'x-forwarded-for': ip },
    body: JSON.stringify({ email, password }),
  });
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

/** The flood's loops in a child process; stop() ends them and returns what they were answered. */
function startFlood(baseUrl: string, csrf: Csrf, mode: Exclude<FloodMode, 'none'>): { stop(): Promise<FloodResult> } {
  const child: ChildProcess = spawn(process.execPath, ['-e', FLOOD_WORKER, JSON.stringify({ baseUrl, csrf, mode, loops: LOOPS })], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    async stop() {
      child.stdin?.end();
      await exited;
      return JSON.parse(output) as FloodResult;
    },
  };
}

/** Plain JavaScript, run with `node -e`: LOOPS failed sign-ins at a time until stdin closes. */
const FLOOD_WORKER = `
const job = JSON.parse(process.argv[1]);
const statuses = {};
let requests = 0, next = 0, running = true;
const started = Date.now();
process.stdin.resume();
process.stdin.on('end', () => { running = false; });
const address = () => job.mode === 'one-ip' ? '198.51.100.7' : '10.' + ((next >> 16) & 255) + '.' + ((next >> 8) & 255) + '.' + (next++ & 255);
const loop = async (n) => {
  while (running) {
    let status = 'error';
    try {
      const response = await fetch(job.baseUrl + '/api/portal/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': job.csrf.token, cookie: job.csrf.cookie, 'x-forwarded-for': address() },
        body: JSON.stringify({ email: 'guess-' + n + '-' + requests + '@example.com', password: 'not the password' }),
      });
      await response.arrayBuffer();
      status = response.status;
    } catch {}
    requests++;
    statuses[status] = (statuses[status] || 0) + 1;
  }
};
Promise.all(Array.from({ length: job.loops }, (_, n) => loop(n))).then(() => {
  const seconds = (Date.now() - started) / 1000;
  process.stdout.write(JSON.stringify({ perSecond: Math.round(requests / seconds), statuses }));
});
`;

function row(label: string, samples: Samples, flood: FloodResult | undefined, limits: string): string {
  const sorted = [...samples.signedInMs].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(0) : '–');
  const count = Object.values(samples.statuses).reduce((a, b) => a + b, 0);
  const refusedMax = samples.refusedMs.length ? Math.max(...samples.refusedMs).toFixed(0) : '–';
  return `| ${label} | ${limits} | ${count} | ${at(0.5)} | ${at(0.95)} | ${at(1)} | ${describe(samples.statuses)} | ${refusedMax} | ${flood?.perSecond ?? '–'} | ${flood ? describe(flood.statuses) : '–'} |`;
}

function describe(statuses: Record<string, number>): string {
  return Object.entries(statuses)
    .map(([status, n]) => `${n}× ${status}`)
    .join(', ');
}

function urlOf(app: NestFastifyApplication): string {
  return `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
