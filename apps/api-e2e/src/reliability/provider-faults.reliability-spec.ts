import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { signCallbackBody } from '@gateway/provider-sim';
import { DataSource } from 'typeorm';
import { http, type HttpResult } from '../support/http';
import { createMerchant, type TestMerchant } from '../support/merchants';
import { buyer, customerWithSavedCard, initializePayment, startPaymentsHarness, type PaymentsHarness } from '../support/payments';
import { waitFor } from '../support/wait';
import { timeoutFor, trials } from './trials';

const CALLBACK_TRIALS = trials(40);
const TIMEOUT_TRIALS = trials(20);
const BREAKER_RESET_MS = 1_000;
const PROVIDER_TIMEOUT_MS = 500;
/** Initializes sent while the provider answers every call with a 500. */
const STORM = 80;

/**
 * Reliability row 7 (provider faults): the provider times out, fails with 5xx, answers late or
 * calls back twice, late or forged. No payment is credited twice, none is lost, answers are clear
 * (502 `provider_error`, 504 `gateway_timeout`), and a circuit breaker stops a failing provider
 * from holding every request for the whole timeout.
 */
describe('reliability: provider faults', () => {
  let h: PaymentsHarness;
  const providerCalls = new Map<string, number>();
  const callsTo = (call: string) => providerCalls.get(call) ?? 0;

  beforeAll(async () => {
    h = await startPaymentsHarness(
      { PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS), PROVIDER_BREAKER_RESET_MS: String(BREAKER_RESET_MS), IDEMPOTENCY_LOCK_TIMEOUT_SECONDS: '2' },
      { ownDatabase: true },
    );
    h.sim.setKnobs({ hangMs: 2 * PROVIDER_TIMEOUT_MS });
    h.sim.app.server.on('request', (request: IncomingMessage) => {
      const call = `${request.method} ${(request.url ?? '').split('?')[0].replace(/\/[^/]*PAY-[^/]*$/, '/:reference')}`;
      providerCalls.set(call, callsTo(call) + 1);
    });
  });
  afterEach(() => h.sim.setKnobs({ failNext: 0, timeoutNext: 0, timeoutMode: 'before_processing' }));
  afterAll(async () => {
    await h?.close();
  });

  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult> =>
    http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body, headers });
  const query = <T>(sql: string, params: unknown[]): Promise<T[]> => h.gateway.app.get(DataSource).query(sql, params);
  const postingsOf = async (reference: string): Promise<number> =>
    (
      await query<{ n: number }>(
        `SELECT count(l.id)::int AS n FROM payments p LEFT JOIN ledger_postings l ON l.source_type = 'payment' AND l.source_id = p.id::text AND l.kind = 'success' WHERE p.reference = $1`,
        [reference],
      )
    )[0].n;
  const successEventsOf = async (reference: string): Promise<number> =>
    (await query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE name = 'payment.success' AND data->>'reference' = $1`, [reference]))[0].n;
  const deliver = (rawBody: string, signature: string) => http(h.gateway.baseUrl, 'POST', '/api/provider/webhooks', { rawBody, headers: { 'x-paystack-signature': signature } });

  /** Pays a checkout at the provider with no callback sent; returns the charge.success callback Paystack would send. */
  async function paidWithoutCallback(m: TestMerchant): Promise<{ reference: string; rawBody: string }> {
    const reference = (await initializePayment(h.gateway, m, { amount: 2000, email: buyer() })).body.data.reference as string;
    h.sim.setWebhookUrl(undefined);
    try {
      await http(h.sim.url() as string, 'POST', `/sim/transactions/${reference}/complete`, { token: h.secrets.test, body: {} });
    } finally {
      h.sim.setWebhookUrl(`${h.gateway.baseUrl}/api/provider/webhooks`);
    }
    const wire = await http(h.sim.url() as string, 'GET', `/transaction/verify/${reference}`, { token: h.secrets.test });
    return { reference, rawBody: JSON.stringify({ event: 'charge.success', data: wire.body.data }) };
  }

  it(
    `${CALLBACK_TRIALS} payments whose success callback arrives twice at once, beside a verify, after forged copies: credited exactly once each`,
    async () => {
      const m = await createMerchant(h.gateway);
      const wrong: unknown[] = [];
      for (let trial = 0; trial < CALLBACK_TRIALS; trial++) {
        const { reference, rawBody } = await paidWithoutCallback(m);
        // Forged first: another secret's signature, and the real body with one byte changed.
        const forged = [deliver(rawBody, signCallbackBody(rawBody, `sk_test_${randomBytes(6).toString('hex')}`)), deliver(rawBody.replace('"success"', '"Success"'), signCallbackBody(rawBody, h.secrets.test))];
        const refused = (await Promise.all(forged)).map((r) => `${r.status} ${r.body?.code}`);
        const creditedByForgery = await postingsOf(reference);
        // Then the real one twice at once, with the merchant's verify racing them.
        const signature = signCallbackBody(rawBody, h.secrets.test);
        const [a, b, verify] = await Promise.all([deliver(rawBody, signature), deliver(rawBody, signature), api(m, 'POST', '/payments/verify', { reference })]);
        // A delivery told to come back (503 while the other is processing) is redelivered by the provider.
        for (const answer of [a, b]) if (answer.status !== 200) await deliver(rawBody, signature);
        const outcome = {
          refused,
          creditedByForgery,
          deliveries: [a, b].map((r) => (r.status === 200 || (r.status === 503 && r.body.code === 'service_unavailable') ? 'ok' : `${r.status} ${r.text}`)),
          verify: verify.body?.data?.status,
          postings: await postingsOf(reference),
          events: await successEventsOf(reference),
        };
        const expected = { refused: ['403 invalid_signature', '403 invalid_signature'], creditedByForgery: 0, deliveries: ['ok', 'ok'], verify: 'success', postings: 1, events: 1 };
        if (JSON.stringify(outcome) !== JSON.stringify(expected)) wrong.push({ trial, outcome });
      }
      expect(wrong).toEqual([]);
    },
    timeoutFor(CALLBACK_TRIALS, 3_000),
  );

  it('a confirmation whose callback never comes is found by the verify, and credited once', async () => {
    const m = await createMerchant(h.gateway);
    const { reference } = await paidWithoutCallback(m);
    expect((await api(m, 'GET', `/payments/${reference}`)).body.data.status).toBe('pending');
    const verified = await api(m, 'POST', '/payments/verify', { reference });
    expect([verified.status, verified.body.data.status, await postingsOf(reference), await successEventsOf(reference)]).toEqual([200, 'success', 1, 1]);
  });

  it(
    `${TIMEOUT_TRIALS} saved-card charges processed by the provider but answered too late: 504 gateway_timeout, and the retry with the same key charges nothing more`,
    async () => {
      const { merchant: m, email, code } = await customerWithSavedCard(h);
      const wrong: unknown[] = [];
      for (let trial = 0; trial < TIMEOUT_TRIALS; trial++) {
        // Healthy traffic around the late answers, as in production: the breaker stays closed.
        for (let i = 0; i < 2; i++) expect((await initializePayment(h.gateway, m, { amount: 1000, email: buyer() })).status).toBe(201);
        const key = `charge-timeout-${randomBytes(6).toString('hex')}`;
        const before = callsTo('POST /transaction/charge_authorization');
        h.sim.setKnobs({ timeoutNext: 1, timeoutMode: 'after_processing' });
        const first = await api(m, 'POST', '/payments/charge', { authorization_code: code, email, amount: 700 }, { 'Idempotency-Key': key });
        let retry = await api(m, 'POST', '/payments/charge', { authorization_code: code, email, amount: 700 }, { 'Idempotency-Key': key });
        // The first request's claim is released when its 504 is sent; a retry racing that is told to wait.
        for (let i = 0; i < 20 && retry.status === 409; i++) retry = await api(m, 'POST', '/payments/charge', { authorization_code: code, email, amount: 700 }, { 'Idempotency-Key': key });
        const reference = retry.body?.data?.reference as string;
        const providerSide = await http(h.sim.url() as string, 'GET', `/transaction/verify/${reference}`, { token: h.secrets.test });
        const outcome = {
          first: `${first.status} ${first.body?.code}`,
          retry: `${retry.status} ${retry.body?.data?.status}`,
          providerStatus: providerSide.body?.data?.status,
          postings: await postingsOf(reference),
          chargeCalls: callsTo('POST /transaction/charge_authorization') - before,
        };
        // The retry either finds the payment already credited (the provider's callback for the late
        // charge came first) or charges again under the same reference, which the provider answers
        // as the first charge: one transaction there, one credit here, whichever it was.
        const expected = { first: '504 gateway_timeout', retry: '201 success', providerStatus: 'success', postings: 1, chargeCalls: outcome.chargeCalls <= 2 ? outcome.chargeCalls : 'at most 2' };
        if (JSON.stringify(outcome) !== JSON.stringify(expected)) wrong.push({ trial, outcome });
      }
      expect(wrong).toEqual([]);
    },
    timeoutFor(TIMEOUT_TRIALS, 5_000),
  );

  it('a 5xx storm: 502 provider_error, then the breaker answers at once without calling the provider, and recovers after its cool-down', async () => {
    const m = await createMerchant(h.gateway);
    const before = callsTo('POST /transaction/initialize');
    h.sim.setKnobs({ failNext: 1_000 });
    const answers: Array<{ status: number; code: string; ms: number }> = [];
    for (let i = 0; i < STORM; i++) {
      const started = performance.now();
      const answer = await initializePayment(h.gateway, m, { amount: 1000, email: buyer() });
      answers.push({ status: answer.status, code: answer.body?.code, ms: performance.now() - started });
    }
    const reached = callsTo('POST /transaction/initialize') - before;
    expect(answers.every((a) => a.status === 502 && a.code === 'provider_error')).toBe(true);
    // The breaker opened once more than half of its window's calls (10 at least) had failed — later
    // when the window (10 s) still holds the previous test's successes — and the rest never left the gateway.
    expect(reached).toBeGreaterThanOrEqual(10);
    expect(STORM - reached).toBeGreaterThanOrEqual(STORM / 4);
    expect(Math.max(...answers.slice(reached).map((a) => a.ms))).toBeLessThan(PROVIDER_TIMEOUT_MS);

    // The provider is back: after the cool-down one probe goes through and calls flow again.
    h.sim.setKnobs({ failNext: 0 });
    await waitFor(async () => (await initializePayment(h.gateway, m, { amount: 1000, email: buyer() })).status === 201, {
      timeoutMs: 10 * BREAKER_RESET_MS,
      what: 'the breaker to close once the provider answers again',
    });
    expect((await initializePayment(h.gateway, m, { amount: 1000, email: buyer() })).status).toBe(201);
  });

  it('a provider that hangs: 504 gateway_timeout after PROVIDER_TIMEOUT_MS, then the breaker stops the waiting', async () => {
    const m = await createMerchant(h.gateway);
    h.sim.setKnobs({ timeoutNext: 1_000 });
    const answers: Array<{ status: number; code: string; ms: number }> = [];
    for (let i = 0; i < 15; i++) {
      const started = performance.now();
      const answer = await initializePayment(h.gateway, m, { amount: 1000, email: buyer() });
      answers.push({ status: answer.status, code: answer.body?.code, ms: performance.now() - started });
    }
    const timedOut = answers.filter((a) => a.status === 504 && a.code === 'gateway_timeout');
    const paused = answers.filter((a) => a.status === 502 && a.code === 'provider_error');
    expect(timedOut.length + paused.length).toBe(answers.length);
    // At most the breaker's volume threshold (10 calls in its window) waited the whole timeout;
    // fewer when its window still holds the previous storm's failures.
    expect(timedOut.length).toBeGreaterThanOrEqual(1);
    expect(timedOut.length).toBeLessThanOrEqual(10);
    expect(paused.length).toBeGreaterThanOrEqual(5);
    expect(Math.min(...timedOut.map((a) => a.ms))).toBeGreaterThanOrEqual(PROVIDER_TIMEOUT_MS * 0.9);
    // Paused answers come at once, not after the provider timeout.
    expect(Math.max(...paused.map((a) => a.ms))).toBeLessThan(PROVIDER_TIMEOUT_MS);
    h.sim.setKnobs({ timeoutNext: 0 });
    await waitFor(async () => (await initializePayment(h.gateway, m, { amount: 1000, email: buyer() })).status === 201, {
      timeoutMs: 10 * BREAKER_RESET_MS,
      what: 'the breaker to close once the provider answers again',
    });
  });
});
