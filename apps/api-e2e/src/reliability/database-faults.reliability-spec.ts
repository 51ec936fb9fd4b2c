import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMigrations, startEmbeddedPostgres, TRANSACTION_ATTEMPTS, type EmbeddedDatabase } from '@gateway/platform';
import { createProviderSimulator, type ProviderSimulator } from '@gateway/provider-sim';
import { Client } from 'pg';
import { DataSource, type QueryRunner } from 'typeorm';
import { startGateway, type TestGateway } from '../support/gateway';
import { http, type HttpResult } from '../support/http';
import { createMerchant, type TestMerchant } from '../support/merchants';
import { buyer, startPaymentsHarness, type PaymentsHarness } from '../support/payments';
import { freePort } from '../support/processes';
import { type SchedulerProcess, startScheduler } from '../support/scheduler-process';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';
import { newIdempotencyKey } from '../support/idempotency-keys';
import { timeoutFor, trials } from './trials';

const SERIALIZATION_TRIALS = trials(200);
const DEADLOCK_TRIALS = trials(20);
const CONCURRENT = 8;

/**
 * Installed by the test in its own database: a trigger on `payments` that makes the insert of a
 * payment whose email is in `reliability_fault_plans` fail its first `failures` attempts — with
 * SQLSTATE 40001, or as the victim of a real deadlock against the test's own session. The attempt
 * counter is a sequence per email, because sequences are not rolled back with the transaction
 * they are used in (a counter row would be).
 */
const FAULT_INJECTION_SQL = `
  CREATE TABLE reliability_fault_plans (email text PRIMARY KEY, counter text NOT NULL, failures int NOT NULL, kind text NOT NULL, lock_a bigint, lock_b bigint);
  CREATE FUNCTION reliability_inject_fault() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE plan reliability_fault_plans; attempt bigint;
  BEGIN
    SELECT * INTO plan FROM reliability_fault_plans WHERE email = NEW.email;
    IF NOT FOUND THEN RETURN NEW; END IF;
    attempt := nextval(plan.counter::regclass);
    IF attempt > plan.failures THEN RETURN NEW; END IF;
    IF plan.kind = 'serialization' THEN
      RAISE EXCEPTION 'injected serialization failure, attempt %', attempt USING ERRCODE = '40001';
    END IF;
    -- A real deadlock: this transaction takes A and, once the test (holding B) waits for A, asks
    -- for B. PostgreSQL checks a waiter for a cycle once, deadlock_timeout after its wait began: the
    -- cycle is whole before this side waits, and its timeout is short, so this side is the victim.
    PERFORM pg_advisory_xact_lock(plan.lock_a);
    FOR i IN 1..3000 LOOP
      EXIT WHEN EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = plan.lock_a AND NOT granted);
      PERFORM pg_sleep(0.01);
    END LOOP;
    PERFORM set_config('deadlock_timeout', '50ms', true);
    PERFORM pg_advisory_xact_lock(plan.lock_b);
    RETURN NEW;
  END $$;
  CREATE TRIGGER reliability_inject_fault BEFORE INSERT ON payments FOR EACH ROW EXECUTE FUNCTION reliability_inject_fault();
`;

/**
 * Reliability row 5 (database faults), first half: serialization failures and deadlocks are run
 * again by the transaction helper (`inTransaction`, bounded attempts with jittered backoff), so the
 * client never sees them; a transaction that keeps failing past the bound is a clean 503
 * `service_unavailable`, and the retry with the same Idempotency-Key makes the one payment.
 */
describe('reliability: serialization failures and deadlocks are retried, never a 500', () => {
  let h: PaymentsHarness;
  let merchant: TestMerchant;
  let db: Client;
  const initializeCalls = new Map<string, number>();

  beforeAll(async () => {
    h = await startPaymentsHarness({}, { ownDatabase: true });
    merchant = await createMerchant(h.gateway);
    db = new Client({ connectionString: h.databaseUrl });
    await db.connect();
    await db.query(FAULT_INJECTION_SQL);
    h.sim.app.server.on('request', (request: IncomingMessage) => {
      if (request.method === 'POST' && request.url === '/transaction/initialize') initializeCalls.set('all', (initializeCalls.get('all') ?? 0) + 1);
    });
  });
  afterAll(async () => {
    // The trigger must not outlive the file: the database's books are checked at close.
    await db?.query(`DROP TRIGGER IF EXISTS reliability_inject_fault ON payments`).catch(() => undefined);
    await db?.end();
    await h?.close();
  });

  /** Plans `failures` failed attempts of the insert of the payment for `email`. */
  async function plan(email: string, failures: number, kind: 'serialization' | 'deadlock', locks: [number, number] | [null, null] = [null, null]): Promise<string> {
    const counter = `reliability_fault_${randomBytes(6).toString('hex')}`;
    await db.query(`CREATE SEQUENCE ${counter}`);
    await db.query(`INSERT INTO reliability_fault_plans VALUES ($1, $2, $3, $4, $5, $6)`, [email, counter, failures, kind, ...locks]);
    return counter;
  }
  const attemptsMade = async (counter: string): Promise<number> => Number((await db.query(`SELECT last_value, is_called FROM ${counter}`)).rows.map((r) => (r.is_called ? r.last_value : 0))[0]);
  const initialize = (email: string, key: string): Promise<HttpResult> =>
    http(h.gateway.baseUrl, 'POST', '/api/v1/payments/initialize', { token: merchant.key, body: { amount: 5000, email }, headers: { 'Idempotency-Key': key } });
  const paymentsFor = async (email: string): Promise<number> => Number((await db.query(`SELECT count(*)::int AS n FROM payments WHERE email = $1`, [email])).rows[0].n);

  it(
    `${SERIALIZATION_TRIALS} initializes whose insert fails with 40001 0–${TRANSACTION_ATTEMPTS - 1} times: all 201, one payment and one provider call each`,
    async () => {
      const before = initializeCalls.get('all') ?? 0;
      const outcomes: Array<{ status: number; code?: string; payments: number; attempts: number; failures: number }> = [];
      for (let start = 0; start < SERIALIZATION_TRIALS; start += CONCURRENT) {
        const batch = Array.from({ length: Math.min(CONCURRENT, SERIALIZATION_TRIALS - start) }, (_, i) => start + i);
        outcomes.push(
          ...(await Promise.all(
            batch.map(async (trial) => {
              const email = buyer();
              const failures = trial % TRANSACTION_ATTEMPTS; // 0 … attempts − 1: always within the bound
              const counter = await plan(email, failures, 'serialization');
              const answer = await initialize(email, `ser-${trial}-${randomBytes(6).toString('hex')}`);
              return { status: answer.status, code: answer.body?.code, payments: await paymentsFor(email), attempts: await attemptsMade(counter), failures };
            }),
          )),
        );
      }
      const wrong = outcomes.filter((o) => o.status !== 201 || o.payments !== 1 || o.attempts !== o.failures + 1);
      expect(wrong).toEqual([]);
      expect(outcomes.reduce((sum, o) => sum + o.failures, 0)).toBeGreaterThan(0);
      expect((initializeCalls.get('all') ?? 0) - before).toBe(SERIALIZATION_TRIALS);
    },
    timeoutFor(SERIALIZATION_TRIALS, 1_000),
  );

  it('a transaction failing past the bound is a 503 service_unavailable, and the retry with the same key makes the one payment', async () => {
    const email = buyer();
    const counter = await plan(email, TRANSACTION_ATTEMPTS, 'serialization');
    const key = `ser-bound-${randomBytes(6).toString('hex')}`;
    const first = await initialize(email, key);
    expect([first.status, first.body.code, await paymentsFor(email), await attemptsMade(counter)]).toEqual([503, 'service_unavailable', 0, TRANSACTION_ATTEMPTS]);
    const retry = await initialize(email, key);
    expect([retry.status, await paymentsFor(email)]).toEqual([201, 1]);
    expect(await initialize(email, key)).toMatchObject({ status: 201, text: retry.text });
  });

  it(
    `${DEADLOCK_TRIALS} initializes made the victim of a real deadlock: all 201, one payment each`,
    async () => {
      const holder = new Client({ connectionString: h.databaseUrl });
      await holder.connect();
      // The test's side never detects first: the API's transaction must be the victim.
      await holder.query(`SET deadlock_timeout = '10s'`);
      try {
        for (let trial = 0; trial < DEADLOCK_TRIALS; trial++) {
          const [lockA, lockB] = [900_000 + 2 * trial, 900_001 + 2 * trial];
          const email = buyer();
          const counter = await plan(email, 1, 'deadlock', [lockA, lockB]);
          await holder.query('BEGIN');
          await holder.query('SELECT pg_advisory_xact_lock($1)', [lockB]);
          const answer = initialize(email, `dl-${trial}-${randomBytes(6).toString('hex')}`);
          // The API's transaction holds A…
          await waitFor(
            async () => (await db.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND granted`, [lockA])).rowCount === 1,
            { timeoutMs: 30_000, what: 'the API transaction to take lock A' },
          );
          // …the test waits for A, the API's transaction then for B: a cycle, which PostgreSQL
          // breaks by aborting the API's side (40P01); the helper runs it again once A is free.
          await holder.query('SELECT pg_advisory_xact_lock($1)', [lockA]);
          await holder.query('ROLLBACK');
          const result = await answer;
          expect([trial, result.status, await paymentsFor(email), await attemptsMade(counter)]).toEqual([trial, 201, 1, 2]);
        }
      } finally {
        await holder.end();
      }
    },
    timeoutFor(DEADLOCK_TRIALS, 3_000),
  );
});

/**
 * Reliability row 5: a pool with no free connection. The test takes every connection of the API's
 * pool and keeps them, as requests that never finish would. A request then waits at most
 * DATABASE_POOL_TIMEOUT_MS for one and answers 503 `service_unavailable`, nothing done. Before that
 * setting it waited as long as the connections were held: for ever, in a deadlock like the one a
 * transfer's settlement once had (`dataSourceOptions` says why). Once they are free, the retry
 * with the same Idempotency-Key makes the one payment, and the refused requests are in the request
 * log: its writer waited for a connection too, and kept its entries.
 */
describe('reliability: no free connection in the pool', () => {
  const POOL_SIZE = 2;
  const POOL_TIMEOUT_MS = 500;
  let h: PaymentsHarness;
  let merchant: TestMerchant;
  let held: QueryRunner[] = [];

  beforeAll(async () => {
    h = await startPaymentsHarness({ DATABASE_POOL_SIZE: String(POOL_SIZE), DATABASE_POOL_TIMEOUT_MS: String(POOL_TIMEOUT_MS) }, { ownDatabase: true });
    merchant = await createMerchant(h.gateway);
  });
  afterAll(async () => {
    await Promise.all(held.map((runner) => runner.release()));
    await h?.close();
  });

  it('a request that waits past DATABASE_POOL_TIMEOUT_MS is a 503, and its retry with the same key makes the one payment', async () => {
    const dataSource = h.gateway.app.get(DataSource);
    const email = buyer();
    const key = newIdempotencyKey('pool');
    const initialize = () => http(h.gateway.baseUrl, 'POST', '/api/v1/payments/initialize', { token: merchant.key, body: { amount: 5000, email }, headers: { 'Idempotency-Key': key } });
    const list = () => http(h.gateway.baseUrl, 'GET', '/api/v1/payments', { token: merchant.key });

    held = await Promise.all(
      Array.from({ length: POOL_SIZE }, async () => {
        const runner = dataSource.createQueryRunner();
        await runner.connect();
        return runner;
      }),
    );
    const started = performance.now();
    const refused = await Promise.all([initialize(), list()]);
    const waitedMs = performance.now() - started;
    expect(refused.map((r) => [r.status, r.body.code])).toEqual([
      [503, 'service_unavailable'],
      [503, 'service_unavailable'],
    ]);
    // They waited for the pool (not refused at once), and not much longer than its timeout.
    expect(waitedMs).toBeGreaterThanOrEqual(POOL_TIMEOUT_MS);
    expect(waitedMs).toBeLessThan(POOL_TIMEOUT_MS + 5_000);

    await Promise.all(held.map((runner) => runner.release()));
    held = [];
    const retried = await initialize();
    expect(retried.status).toBe(201);
    expect((await list()).status).toBe(200);
    expect(Number((await dataSource.query(`SELECT count(*)::int AS n FROM payments WHERE email = $1`, [email]))[0].n)).toBe(1);
    const requestIds = refused.map((r) => r.headers.get('x-request-id'));
    await waitFor(
      async () => Number((await dataSource.query(`SELECT count(*)::int AS n FROM request_logs WHERE request_id = ANY($1) AND status_code = 503`, [requestIds]))[0].n) === refused.length,
      { timeoutMs: 20_000, what: 'the refused requests to be in the request log' },
    );
  });
});

/**
 * Reliability row 5: a statement that would wait without end. The test's own session holds a lock
 * that stops new payments (as a stuck migration or a forgotten console session would). A request
 * whose statement waits behind it is cancelled by PostgreSQL after DATABASE_STATEMENT_TIMEOUT_MS
 * and answers 503 `service_unavailable`; before that setting it held its connection as long as the
 * lock was held. Reads go on meanwhile, no session of the API is left waiting, and once the lock
 * goes the retry with the same Idempotency-Key makes the one payment.
 */
describe('reliability: a statement past DATABASE_STATEMENT_TIMEOUT_MS', () => {
  const STATEMENT_TIMEOUT_MS = 1_000;
  let h: PaymentsHarness;
  let merchant: TestMerchant;
  let locker: Client | undefined;

  beforeAll(async () => {
    h = await startPaymentsHarness({ DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS) }, { ownDatabase: true });
    merchant = await createMerchant(h.gateway);
  });
  afterAll(async () => {
    await locker?.end();
    await h?.close();
  });

  it('a request whose statement waits past the bound is a 503, reads are served meanwhile, and its retry with the same key makes the one payment', async () => {
    const dataSource = h.gateway.app.get(DataSource);
    const email = buyer();
    const key = newIdempotencyKey('statement-timeout');
    const initialize = () => http(h.gateway.baseUrl, 'POST', '/api/v1/payments/initialize', { token: merchant.key, body: { amount: 5000, email }, headers: { 'Idempotency-Key': key } });
    const list = () => http(h.gateway.baseUrl, 'GET', '/api/v1/payments', { token: merchant.key });
    const waitingSessions = async () =>
      Number(
        (await dataSource.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`))[0].n,
      );

    // SHARE mode: reads of payments go on, writes wait.
    locker = new Client({ connectionString: h.databaseUrl });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE payments IN SHARE MODE');

    const started = performance.now();
    const pending = initialize();
    await waitFor(async () => (await waitingSessions()) === 1, { timeoutMs: 5_000, what: 'the payment to wait behind the lock' });
    expect((await list()).status).toBe(200);
    const refused = await pending;
    const waitedMs = performance.now() - started;
    expect([refused.status, refused.body.code]).toEqual([503, 'service_unavailable']);
    expect(refused.body.message).toMatch(/took longer than the service allows/);
    expect(waitedMs).toBeGreaterThanOrEqual(STATEMENT_TIMEOUT_MS);
    expect(waitedMs).toBeLessThan(STATEMENT_TIMEOUT_MS + 5_000);
    // Cancelled, not left waiting: the lock is still held and no session of the API waits on it.
    expect(await waitingSessions()).toBe(0);

    await locker.query('ROLLBACK');
    const retried = await initialize();
    expect(retried.status).toBe(201);
    expect(Number((await dataSource.query(`SELECT count(*)::int AS n FROM payments WHERE email = $1`, [email]))[0].n)).toBe(1);
    const requestId = refused.headers.get('x-request-id');
    await waitFor(
      async () => Number((await dataSource.query(`SELECT count(*)::int AS n FROM request_logs WHERE request_id = $1 AND status_code = 503`, [requestId]))[0].n) === 1,
      { timeoutMs: 20_000, what: 'the refused request to be in the request log' },
    );
  });
});

/**
 * Reliability row 5, second half: the PostgreSQL server restarted under load. The test owns the
 * cluster (embedded PostgreSQL 15 on a free port, data in a temporary directory); an API instance
 * and a scheduler run on it while clients keep initializing payments with idempotency keys. The
 * server is stopped (fast shutdown) for a moment and started again on the same port and data:
 * requests in flight or arriving meanwhile fail cleanly (503 `service_unavailable`, or 409
 * `idempotency_key_in_progress` while a claim the API could not release waits out its lock
 * timeout), never a 500 or a hang; neither process is restarted; every key's retry succeeds with
 * one payment; and the scheduler's job queue (graphile-worker) delivers a webhook made after it.
 */
describe('reliability: PostgreSQL restarted under load', () => {
  const CLIENTS = 4;
  const LOCK_TIMEOUT_SECONDS = 3;
  const OUTAGE_MS = 3_000;
  let dir: string;
  let port: number;
  let server: EmbeddedDatabase | undefined;
  let sim: ProviderSimulator;
  let gateway: TestGateway;
  let scheduler: SchedulerProcess;
  let merchant: TestMerchant;
  const receiver = new WebhookReceiver();
  const secrets = { test: `sk_test_sim_${randomBytes(6).toString('hex')}`, live: `sk_live_sim_${randomBytes(6).toString('hex')}` };

  const startServer = async () => {
    server = await startEmbeddedPostgres({ dir: join(dir, 'data'), port, relocationDir: join(dir, 'relocated') });
    return server;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gateway-restart-'));
    chmodSync(dir, 0o755); // under root the server runs as `postgres`, which must reach its data
    port = await freePort();
    const { url } = await startServer();
    await runMigrations(url);
    sim = createProviderSimulator({ secretKeys: [secrets.test, secrets.live], transferDelayMs: 0 });
    const simUrl = await sim.listen();
    const env = {
      DATABASE_URL: url,
      PROVIDER_TEST_BASE_URL: simUrl,
      PROVIDER_LIVE_BASE_URL: simUrl,
      PROVIDER_TEST_SECRET_KEY: secrets.test,
      PROVIDER_LIVE_SECRET_KEY: secrets.live,
      PROVIDER_TIMEOUT_MS: '2000',
      // A claim the API could not release while the database was down is taken over after this.
      IDEMPOTENCY_LOCK_TIMEOUT_SECONDS: String(LOCK_TIMEOUT_SECONDS),
      // The scheduler decrypts the webhook secrets the API stored.
      ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    };
    gateway = await startGateway(env);
    sim.setWebhookUrl(`${gateway.baseUrl}/api/provider/webhooks`);
    scheduler = await startScheduler(env);
    merchant = await createMerchant(gateway);
    const receiverUrl = await receiver.start();
    const hook = await http(gateway.baseUrl, 'POST', '/api/v1/webhooks', { token: merchant.key, body: { url: `${receiverUrl}/hook`, events: ['payment.success'], webhook_version: 'v1' } });
    expect(hook.status).toBe(201);
    // Before the restart, the scheduler delivers (so a missing delivery later is the restart's doing).
    await expectDelivered('before the restart');
  }, 180_000);
  afterAll(async () => {
    await scheduler?.stop();
    await gateway?.close();
    await sim?.idle();
    await sim?.close();
    await receiver.close();
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  /** A payment paid now: its payment.success reaches the receiver through the scheduler's job queue. */
  async function expectDelivered(when: string): Promise<void> {
    const init = await http(gateway.baseUrl, 'POST', '/api/v1/payments/initialize', { token: merchant.key, body: { amount: 5000, email: buyer() } });
    const paid = await http(gateway.baseUrl, 'POST', `/api/v1/sandbox/payments/${init.body.data.reference}/complete`, { token: merchant.key, body: { outcome: 'success' } });
    expect(paid.status).toBe(200);
    const reference = init.body.data.reference as string;
    await waitFor(async () => receiver.received.some((hook) => hook.body.includes(reference)), {
      timeoutMs: 60_000,
      what: `the scheduler to deliver the webhook of a payment made ${when} (scheduler output: ${scheduler.output().slice(-2_000)})`,
    });
  }

  it('in-flight requests fail cleanly, both processes recover by themselves, every key succeeds once', async () => {
    const answers: Array<{ status: number; code?: string }> = [];
    const keys: string[] = [];
    let restarted = false;
    let stop = false;

    /** One client: new key after new key; each retried (same key, same body) until it is made. */
    const client = async () => {
      while (!stop) {
        const key = newIdempotencyKey('restart');
        const body = { amount: 5000, email: buyer() };
        keys.push(key);
        const deadline = Date.now() + 60_000;
        for (;;) {
          const answer = await http(gateway.baseUrl, 'POST', '/api/v1/payments/initialize', { token: merchant.key, body, headers: { 'Idempotency-Key': key } });
          answers.push({ status: answer.status, code: answer.body?.code });
          if (answer.status === 201) break;
          if (Date.now() > deadline) throw new Error(`key ${key} still failing: ${answer.status} ${answer.text}`);
          await new Promise((resolve) => setTimeout(resolve, 100)); // a client's back-off
        }
        if (restarted) stop = true;
      }
    };

    const load = Promise.all(Array.from({ length: CLIENTS }, client));
    await waitFor(async () => answers.filter((a) => a.status === 201).length >= 20, { timeoutMs: 60_000, what: 'the load to run' });
    await server?.stop(); // fast shutdown: open transactions rolled back, every connection cut
    const [down, stoppedAt] = [answers.length, Date.now()];
    // A few seconds down, with requests answered meanwhile (each client keeps retrying).
    await waitFor(async () => answers.length >= down + 10 && Date.now() - stoppedAt >= OUTAGE_MS, { timeoutMs: 30_000, what: 'requests to be answered while the database is down' });
    await startServer();
    // Claims the API could not release while the database was down are taken over once the lock
    // timeout has passed (the harness's clock stands still unless moved).
    gateway.clock.advance(LOCK_TIMEOUT_SECONDS * 1000);
    restarted = true;
    await load;

    const byOutcome: Record<string, number> = {};
    for (const a of answers) byOutcome[`${a.status}${a.code ? ` ${a.code}` : ''}`] = (byOutcome[`${a.status}${a.code ? ` ${a.code}` : ''}`] ?? 0) + 1;
    // Clean failures only: nothing but 201, 503 service_unavailable and 409 in progress.
    expect(Object.keys(byOutcome).filter((k) => !['201', '503 service_unavailable', '409 idempotency_key_in_progress'].includes(k))).toEqual([]);
    expect(byOutcome['503 service_unavailable']).toBeGreaterThan(0);

    // One payment per key, none without its key.
    const check = new Client({ connectionString: server?.url });
    await check.connect();
    try {
      const rows = (await check.query(`SELECT idempotency_key AS key, count(*)::int AS n FROM payments WHERE developer_id = $1 AND idempotency_key IS NOT NULL GROUP BY idempotency_key`, [merchant.developerId])).rows as Array<{ key: string; n: number }>;
      expect(rows.filter((r) => r.n !== 1)).toEqual([]);
      expect(rows.map((r) => r.key).sort()).toEqual([...keys].sort());
    } finally {
      await check.end();
    }

    // The scheduler's job queue resumed: an event made now is delivered by its worker.
    await expectDelivered('after the restart');
    expect(scheduler.child.exitCode).toBeNull();
  }, 240_000);
});
