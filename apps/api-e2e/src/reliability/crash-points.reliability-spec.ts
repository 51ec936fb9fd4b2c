import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { type AppProcess, startApi } from '../support/api-process';
import { http, type HttpResult } from '../support/http';
import { createMerchant, type TestMerchant } from '../support/merchants';
import { customerWithSavedCard, schedulerEnvFor, startPaymentsHarness, type PaymentsHarness } from '../support/payments';
import { startScheduler } from '../support/scheduler-process';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';
import { newIdempotencyKey } from '../support/idempotency-keys';
import { timeoutFor, trials } from './trials';

/** Kills per crash point in the API and in the dispatcher: each costs a process start (about 2 s of CPU). */
const API_TRIALS = trials(50);
const DISPATCHER_TRIALS = trials(50);
/** API processes booting ahead of the trial that will kill them: one per core, so boots overlap the trials and each other. */
const STANDBYS = 2;
/** Armed schedulers started together in one dispatcher round. */
const SCHEDULERS_PER_ROUND = 2;
const EVENTS = ['payment.success', 'customer.created'];

const API_POINTS = [
  { failpoint: 'idempotency.after-claim', where: 'after the idempotency claim' },
  { failpoint: 'provider.after-call', where: 'after the provider call' },
  { failpoint: 'transaction.before-commit@payments.record-success', where: "before the charge's commit" },
  { failpoint: 'transaction.after-commit@payments.record-success', where: "after the charge's commit" },
];

/**
 * Reliability row 2 (crash points): failpoints (libs/platform/src/process/failpoints.ts), off
 * unless GATEWAY_FAILPOINTS names them, kill the process with SIGKILL at one point. Per API trial a
 * fresh API process armed at that point gets a saved-card charge with an Idempotency-Key and dies
 * in it; the client sees the connection drop and retries with the same key on an API process that
 * carries on (as behind a load balancer). The retry answers 201 `success`; money moved exactly
 * once (one payment for the key, one ledger posting, the provider's transaction for our reference
 * successful). Per dispatcher trial a scheduler armed after sending a delivery and before
 * recording it dies; a scheduler started afterwards sends it again. After each part: every
 * committed event arrived at least once, and nothing is left in flight — no idempotency claim in
 * progress, no payment pending, no delivery pending or leased, no job-queue job waiting. A killed
 * scheduler leaves only its deliveries' leases, which run out and let the next claim of a live
 * scheduler take them (docs/webhooks.md).
 */
describe('reliability: kill -9 at each crash point, then recovery', () => {
  const ENCRYPTION_KEYS = `k1:${randomBytes(32).toString('base64')}`;
  let h: PaymentsHarness;
  let env: Record<string, string>;
  let survivor: AppProcess;
  const processes: AppProcess[] = [];
  const receiver = new WebhookReceiver();
  let merchant: TestMerchant;
  let card: { email: string; code: string };

  beforeAll(async () => {
    h = await startPaymentsHarness({ ENCRYPTION_KEYS }, { ownDatabase: true });
    env = schedulerEnvFor(h, {
      ENCRYPTION_KEYS,
      LOG_LEVEL: 'warn',
      // A dead request's claim is taken over after 1 s (the lock timeout must exceed the provider timeout).
      IDEMPOTENCY_LOCK_TIMEOUT_SECONDS: '1',
      PROVIDER_TIMEOUT_MS: '900',
      // A dead attempt's delivery lease runs out 5 s after this.
      WEBHOOK_TIMEOUT_MS: '1000',
      RATE_LIMIT_TEST_PER_SECOND: '100000',
      RATE_LIMIT_IP_PER_SECOND: '100000',
    });
    survivor = track(await startApi(env));
    h.sim.setWebhookUrl(`${survivor.baseUrl}/api/provider/webhooks`);
    track(await startScheduler(env));
    const receiverUrl = await receiver.start();
    merchant = await createMerchant(h.gateway);
    const endpoint = await http(survivor.baseUrl, 'POST', '/api/v1/webhooks', { token: merchant.key, body: { url: receiverUrl, events: EVENTS, webhook_version: 'v1' } });
    expect(endpoint.status).toBe(201);
    card = await customerWithSavedCard(h, undefined, merchant);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await receiver.close();
    await h?.close();
  }, 120_000);

  function track(process: AppProcess): AppProcess {
    processes.push(process);
    return process;
  }

  const query = <T>(sql: string, params: unknown[]): Promise<T[]> => h.gateway.app.get(DataSource).query(sql, params);
  const charge = (baseUrl: string, key: string, amount: number): Promise<HttpResult> =>
    http(baseUrl, 'POST', '/api/v1/payments/charge', { token: merchant.key, body: { authorization_code: card.code, email: card.email, amount }, headers: { 'Idempotency-Key': key } });

  /** API processes armed at `failpoint`, STANDBYS of them booting ahead of the trials that take them. */
  function armedApis(failpoint: string, count: number): () => Promise<AppProcess> {
    const boot = () => startApi({ ...env, GATEWAY_FAILPOINTS: failpoint }).then(track);
    const booting = Array.from({ length: Math.min(STANDBYS, count) }, boot);
    let started = booting.length;
    return () => {
      const next = booting.shift() as Promise<AppProcess>;
      if (started++ < count) booting.push(boot());
      return next;
    };
  }

  /** One trial: the armed process dies in the charge, the client retries on the survivor; what happened, to compare. */
  async function crashAndRetry(victim: AppProcess, trial: number): Promise<Record<string, unknown>> {
    const key = newIdempotencyKey('crash');
    const amount = 1000 + trial;
    const first = await charge(victim.baseUrl, key, amount).then(
      (r) => `answered ${r.status}`,
      () => 'connection dropped',
    );
    // A victim that answered without reaching its crash point does not die: stopped after a minute,
    // it is a wrong outcome (what it answered is in `first`) rather than a trial waiting for ever.
    const died = await Promise.race([victim.exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 60_000).unref())]);
    if (!died) await victim.stop();
    let retry = await charge(survivor.baseUrl, key, amount);
    // The dead request's claim is in progress until the lock timeout; then the retry takes it over.
    const deadline = Date.now() + 60_000;
    while (retry.status === 409 && retry.body?.code === 'idempotency_key_in_progress' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      retry = await charge(survivor.baseUrl, key, amount);
    }
    const payments = await query<{ id: string; reference: string }>(`SELECT id, reference FROM payments WHERE developer_id = $1 AND idempotency_key = $2`, [merchant.developerId, key]);
    const postings = payments.length
      ? (await query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_postings WHERE source_type = 'payment' AND source_id = $1 AND kind = 'success'`, [payments[0].id]))[0].n
      : 0;
    const atProvider = payments.length ? await http(h.sim.url() as string, 'GET', `/transaction/verify/${payments[0].reference}`, { token: h.secrets.test }) : undefined;
    return {
      first,
      killed: victim.child.signalCode,
      retry: `${retry.status} ${retry.body?.data?.status ?? retry.body?.code}`,
      sameReference: payments.length > 0 && retry.body?.data?.reference === payments[0].reference,
      payments: payments.length,
      postings,
      provider: `${atProvider?.body?.data?.status} ${atProvider?.body?.data?.amount}`,
    };
  }

  /** Waits for the recovery, then what is still in flight or undelivered (all zero when recovered). */
  async function leftInFlight(): Promise<Record<string, number>> {
    const counts = async () => {
      const [row] = await query<Record<string, number>>(
        `SELECT (SELECT count(*) FROM idempotency_keys WHERE developer_id = $1 AND status = 'in_progress')::int AS "claimsInProgress",
                (SELECT count(*) FROM payments WHERE developer_id = $1 AND status = 'pending')::int AS "paymentsPending",
                (SELECT count(*) FROM webhook_deliveries WHERE developer_id = $1 AND (status <> 'delivered' OR lease_until IS NOT NULL))::int AS "deliveriesInFlight",
                (SELECT count(*) FROM graphile_worker.jobs WHERE locked_at IS NULL)::int AS "jobsWaiting"`,
        [merchant.developerId],
      );
      const arrived = new Set(receiver.received.map((hook) => String(hook.headers['x-gateway-event-id'])));
      const events = await query<{ id: string }>(`SELECT id FROM events WHERE developer_id = $1 AND name = ANY ($2)`, [merchant.developerId, EVENTS]);
      return { ...row, eventsNeverArrived: events.filter((e) => !arrived.has(e.id)).length };
    };
    await waitFor(async () => Object.values(await counts()).every((n) => n === 0), { timeoutMs: 60_000, what: 'the recovery' }).catch(() => undefined);
    return counts();
  }

  it.each(API_POINTS)(
    `$where: ${API_TRIALS} API processes killed there; the retry with the same key charges once, and nothing stays in flight`,
    async ({ failpoint }) => {
      const nextVictim = armedApis(failpoint, API_TRIALS);
      const wrong: unknown[] = [];
      for (let trial = 0; trial < API_TRIALS; trial++) {
        const outcome = await crashAndRetry(await nextVictim(), trial);
        const expected = { first: 'connection dropped', killed: 'SIGKILL', retry: '201 success', sameReference: true, payments: 1, postings: 1, provider: `success ${(1000 + trial) * 100}` };
        if (JSON.stringify(outcome) !== JSON.stringify(expected)) wrong.push({ trial, outcome });
      }
      expect(wrong).toEqual([]);
      expect(await leftInFlight()).toEqual({ claimsInProgress: 0, paymentsPending: 0, deliveriesInFlight: 0, jobsWaiting: 0, eventsNeverArrived: 0 });
    },
    timeoutFor(API_TRIALS, 30_000),
  );

  it(
    `in the dispatcher after sending, before recording: ${DISPATCHER_TRIALS} schedulers killed there; every event arrives at least once, no delivery stays in flight`,
    async () => {
      // Only armed schedulers run, so each delivery goes to one that dies after sending it.
      for (const scheduler of processes.filter((p) => p !== survivor)) await scheduler.stop();
      let killed = 0;
      let notKilled = 0;
      while (killed + notKilled < DISPATCHER_TRIALS) {
        const round = Math.min(SCHEDULERS_PER_ROUND, DISPATCHER_TRIALS - killed - notKilled);
        const schedulers = await Promise.all(Array.from({ length: round }, () => startScheduler({ ...env, GATEWAY_FAILPOINTS: 'webhooks.after-send' }).then(track)));
        // New events for them to send; deliveries abandoned by earlier rounds come back once their lease runs out.
        for (let i = 0; i < 2 * round; i++) {
          expect((await http(survivor.baseUrl, 'POST', '/api/v1/customers', { token: merchant.key, body: { email: `crash-${randomBytes(5).toString('hex')}@example.com` } })).status).toBe(201);
        }
        await Promise.all(schedulers.map((s) => Promise.race([s.exited, new Promise((resolve) => setTimeout(resolve, 60_000).unref())])));
        for (const s of schedulers) {
          if (s.child.signalCode === 'SIGKILL') killed++;
          else {
            notKilled++;
            await s.stop();
          }
        }
      }
      expect({ killed, notKilled }).toEqual({ killed: DISPATCHER_TRIALS, notKilled: 0 });
      // A scheduler that carries on sends what the dead ones did not record.
      track(await startScheduler(env));
      expect(await leftInFlight()).toEqual({ claimsInProgress: 0, paymentsPending: 0, deliveriesInFlight: 0, jobsWaiting: 0, eventsNeverArrived: 0 });
    },
    timeoutFor(DISPATCHER_TRIALS, 30_000),
  );
});
