import 'reflect-metadata';
import { createApiApp } from '@gateway/api';
import { ApiKeysService } from '@gateway/domain/api-keys';
import { DevelopersService } from '@gateway/domain/developers';
import { WebhookRecoveryService, WebhooksService } from '@gateway/domain/webhooks';
import { type DeveloperContext, loadConfig } from '@gateway/platform';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';

/**
 * Endpoint health on a busy endpoint: ATTEMPTS attempt logs of one endpoint (one delivery each,
 * 10 % failed, spread over the health window: today and the six UTC days before), seeded with
 * plain SQL, the (sharded) day counts and the health columns filled as the dispatcher keeps them. Then `GET /api/v1/webhooks/{id}` and
 * `GET /api/v1/webhooks` over HTTP (the API app in-process, a real key), RUNS times each, and for
 * comparison the same success rate counted from the attempt log; then one replay of every failed
 * delivery (a tenth: 10,000). Prints p50/p95 in ms, and the replay's duration.
 * See docs/benchmarks.md ("Endpoint health").
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:webhook-health
 */
const ATTEMPTS = Number(process.env.BENCH_ATTEMPTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
/** The health window: today (UTC) and the six days before it. */
const now = new Date();
const WINDOW_START = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 6 * 86_400_000);
/** Attempts are spread over the window up to a minute ago. */
const SPREAD_SECONDS = (now.getTime() - WINDOW_START.getTime()) / 1000 - 60;

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_SERVER_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server the benchmark may create a database on.');
  const databaseUrl = await createTestDatabase('bench_webhook_health', serverUrl);
  // Rate limits out of the way: this measures one request's cost, not the limiter.
  const env = { NODE_ENV: 'test', DATABASE_URL: databaseUrl, ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`, LOG_LEVEL: 'warn', RATE_LIMIT_TEST_PER_SECOND: '1000000', RATE_LIMIT_IP_PER_SECOND: '1000000' };
  const app = await createApiApp({ config: loadConfig(env), databaseUrl, logger: false });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
    const developer = await app.get(DevelopersService, { strict: false }).create({ email: 'bench-health@example.com', name: 'Bench', emailVerified: true });
    const ctx: DeveloperContext = { developerId: developer.id, mode: 'test' };
    const { secret: key } = await app.get(ApiKeysService, { strict: false }).issue({ developerId: developer.id, mode: 'test', kind: 'secret' });
    const webhooks = app.get(WebhooksService, { strict: false });
    const busy = (await webhooks.create(ctx, { url: 'http://127.0.0.1:9/busy', events: ['customer.created'], webhookVersion: 'v1' })).endpoint;
    const idle = (await webhooks.create(ctx, { url: 'http://127.0.0.1:9/idle', events: ['customer.created'], webhookVersion: 'v1' })).endpoint;
    const dataSource = app.get(DataSource);

    log(`seeding ${ATTEMPTS.toLocaleString('en-US')} attempts of one endpoint…`);
    const seeded = performance.now();
    await seed(dataSource, ctx, busy.id);
    log(`seeded in ${Math.round((performance.now() - seeded) / 1000)} s; measuring (${RUNS} runs each, load average ${loadavg()[0].toFixed(1)})…`);

    const get = (path: string) => async () => {
      const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<{ data: unknown }>;
    };
    const shown = (await get(`/api/v1/webhooks/${busy.reference}`)()).data as { health: { attempts: number; success_rate: number } };
    if (shown.health.attempts !== ATTEMPTS) throw new Error(`expected ${ATTEMPTS} attempts in the window, the API shows ${shown.health.attempts}`);
    const countFromLogs = async () =>
      dataSource.query(`SELECT count(*)::int AS attempts, count(*) FILTER (WHERE success)::int AS succeeded FROM webhook_delivery_logs WHERE endpoint_id = $1 AND created_at >= $2`, [
        busy.id,
        WINDOW_START,
      ]);
    const report = {
      attempts_of_the_endpoint: ATTEMPTS,
      success_rate_shown: shown.health.success_rate,
      get_endpoint_with_100k_attempts_ms: await measure(get(`/api/v1/webhooks/${busy.reference}`)),
      get_endpoint_without_attempts_ms: await measure(get(`/api/v1/webhooks/${idle.reference}`)),
      list_endpoints_ms: await measure(get('/api/v1/webhooks')),
      service_view_ms: await measure(() => webhooks.view(ctx, busy.reference)),
      for_comparison_count_from_the_log_ms: await measure(countFromLogs),
      replay: await replayAll(app.get(WebhookRecoveryService, { strict: false }), ctx, busy.reference, dataSource),
      load_average: Number(loadavg()[0].toFixed(1)),
    };
    console.log(JSON.stringify(report, null, 2));
  } finally {
    await app.close();
    await dropTestDatabase(databaseUrl, serverUrl);
  }
}

/**
 * One event, delivery and attempt log per attempt, spread evenly over the health window; every
 * tenth failed. The day counts and the endpoint's health as the dispatcher leaves them.
 */
async function seed(dataSource: DataSource, ctx: DeveloperContext, endpointId: string): Promise<void> {
  const params = [ctx.developerId, ctx.mode, endpointId, ATTEMPTS, SPREAD_SECONDS];
  await dataSource.query(
    `INSERT INTO events (id, developer_id, mode, name, data, created_at)
     SELECT 'evt_bench' || lpad(g::text, 15, '0'), $1, $2, 'customer.created', '{}'::jsonb, now() - ($4::float8 * g / $3) * interval '1 second'
       FROM generate_series(1, $3::int) g`,
    [params[0], params[1], params[3], params[4]],
  );
  await dataSource.query(
    `INSERT INTO webhook_deliveries (developer_id, mode, endpoint_id, event_id, status, attempts, next_attempt_at, created_at, completed_at)
     SELECT $1, $2, $3, e.id, CASE WHEN g % 10 = 0 THEN 'failed' ELSE 'delivered' END, 1, e.created_at, e.created_at, e.created_at
       FROM generate_series(1, $4::int) g JOIN events e ON e.id = 'evt_bench' || lpad(g::text, 15, '0')`,
    params.slice(0, 4),
  );
  await dataSource.query(
    `INSERT INTO webhook_delivery_logs (reference, delivery_id, developer_id, mode, endpoint_id, event_id, event_name, attempt, trigger, success, status_code, latency_ms, error, created_at)
     SELECT 'whl_bench' || d.id, d.id, $1, $2, $3, d.event_id, 'customer.created', 1, 'automatic', d.status = 'delivered',
            CASE WHEN d.status = 'delivered' THEN 200 ELSE 500 END, 12, CASE WHEN d.status = 'delivered' THEN NULL ELSE 'http_status' END, d.created_at
       FROM webhook_deliveries d WHERE d.endpoint_id = $3`,
    params.slice(0, 3),
  );
  await dataSource.query(
    `INSERT INTO webhook_endpoint_attempt_days (endpoint_id, day, shard, attempts, succeeded)
     SELECT endpoint_id, (created_at AT TIME ZONE 'UTC')::date, abs(hashtext(delivery_id::text)) % 16, count(*), count(*) FILTER (WHERE success)
       FROM webhook_delivery_logs WHERE endpoint_id = $1 GROUP BY 1, 2, 3`,
    [endpointId],
  );
  await dataSource.query(
    `UPDATE webhook_endpoints SET last_success_at = now(), last_failure_at = now() - interval '1 minute', last_failure_error = 'http_status', last_failure_status_code = 500 WHERE id = $1`,
    [endpointId],
  );
  await dataSource.query(`ANALYZE webhook_delivery_logs; ANALYZE webhook_endpoint_attempt_days; ANALYZE webhook_endpoints`);
}

/** Replays every failed delivery of the window (a tenth of the attempts) in one call: how long, how many. */
async function replayAll(recovery: WebhookRecoveryService, ctx: DeveloperContext, reference: string, dataSource: DataSource) {
  const [{ failed }] = (await dataSource.query(`SELECT count(*)::int AS failed FROM webhook_deliveries WHERE status = 'failed'`)) as Array<{ failed: number }>;
  const started = performance.now();
  const { queued } = await recovery.replay(ctx, reference, WINDOW_START);
  const seconds = Math.round((performance.now() - started) / 10) / 100;
  if (queued !== failed) throw new Error(`replay queued ${queued} of ${failed} failed deliveries`);
  return { failed_deliveries: failed, queued, seconds, per_second: Math.round(queued / seconds) };
}

/** p50 and p95 of `runs` sequential calls, after 20 warm-up calls. */
async function measure(call: () => Promise<unknown>, runs = RUNS): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 20; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] * 100) / 100;
  return { p50: at(0.5), p95: at(0.95) };
}

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

void main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
