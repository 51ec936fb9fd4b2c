import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { signCallbackBody } from '@gateway/provider-sim';
import { DataSource } from 'typeorm';
import { type TestGateway, startGateway } from '../support/gateway';
import { http, type HttpResult } from '../support/http';
import { createMerchant, type TestMerchant } from '../support/merchants';
import { buyer, customerWithSavedCard, eventsFor, initializePayment, paidPayment, schedulerEnvFor, startPaymentsHarness, type PaymentsHarness } from '../support/payments';
import { startScheduler } from '../support/scheduler-process';
import { waitFor } from '../support/wait';
import { availableBalance, fundedLiveMerchant, savedRecipient } from './live-wallet';
import { timeoutFor, trials } from './trials';

const CALLBACK_TRIALS = trials(40);
const TIMEOUT_TRIALS = trials(20);
const BREAKER_RESET_MS = 1_000;
const PROVIDER_TIMEOUT_MS = 500;
/** Initializes sent while the provider answers every call with a 500. */
const STORM = 80;
const RETRY_TRIALS = trials(10);
const EARLY_CALLBACK_TRIALS = trials(10);
const RECONCILE_TRIALS = trials(20);
/** PROVIDER_MAX_SOCKETS here: far below the burst sent at a hanging provider. */
const MAX_SOCKETS = 4;
const HUNG_BURST = 24;

/**
 * Reliability row 7 (provider faults): the provider times out, fails with 5xx, answers late or
 * calls back twice, late or forged. No payment is credited twice, none is lost, answers are clear
 * (502 `provider_error`, 504 `gateway_timeout`) and a retry with the same key takes effect once
 * (payments, refunds, live transfers, hold capture and release), a confirmation nobody reports is
 * found by the scheduler's reconciliation, a circuit breaker stops a failing provider from holding
 * every request for the whole timeout, and a hanging one never holds more than PROVIDER_MAX_SOCKETS
 * connections.
 */
describe('reliability: provider faults', () => {
  let h: PaymentsHarness;
  const providerCalls = new Map<string, number>();
  const callsTo = (call: string) => providerCalls.get(call) ?? 0;
  const sockets = { armed: false, open: new Set<Socket>(), most: 0, accepted: 0 };

  const gatewayEnv = {
    PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS),
    PROVIDER_BREAKER_RESET_MS: String(BREAKER_RESET_MS),
    PROVIDER_MAX_SOCKETS: String(MAX_SOCKETS),
    IDEMPOTENCY_LOCK_TIMEOUT_SECONDS: '2',
  };

  beforeAll(async () => {
    h = await startPaymentsHarness(gatewayEnv, { ownDatabase: true });
    h.sim.setKnobs({ hangMs: 2 * PROVIDER_TIMEOUT_MS });
    h.sim.app.server.on('request', (request: IncomingMessage) => {
      const call = `${request.method} ${(request.url ?? '').split('?')[0].replace(/\/[^/]*PAY-[^/]*$/, '/:reference')}`;
      providerCalls.set(call, callsTo(call) + 1);
      // The sockets carrying provider calls at once, as the simulator sees them (counted while armed).
      const socket = request.socket;
      if (sockets.armed && !sockets.open.has(socket)) {
        sockets.open.add(socket);
        sockets.most = Math.max(sockets.most, sockets.open.size);
        // Gone at the first sign: the client's end arrives before the close event does.
        for (const gone of ['end', 'error', 'close']) socket.once(gone, () => sockets.open.delete(socket));
      }
    });
    h.sim.app.server.on('connection', () => sockets.armed && sockets.accepted++);
  });
  afterEach(() => h.sim.setKnobs({ failNext: 0, timeoutNext: 0, timeoutMode: 'before_processing', latencyMs: 0, hangMs: 2 * PROVIDER_TIMEOUT_MS }));
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
  /** Sends again while told the first request under the same key is still finishing (409: its claim is released just after its answer). */
  async function sentAgain(send: () => Promise<HttpResult>): Promise<HttpResult> {
    let answer = await send();
    for (let i = 0; i < 20 && answer.status === 409 && answer.body?.code === 'idempotency_key_in_progress'; i++) answer = await send();
    return answer;
  }
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

  it(
    `${RETRY_TRIALS} payments that fail first and then succeed (a declined card then a good one; a 5xx then the retry): credited once each`,
    async () => {
      const { merchant: m, email, code } = await customerWithSavedCard(h);
      const wrong: unknown[] = [];
      for (let trial = 0; trial < RETRY_TRIALS; trial++) {
        // The checkout: declined first (verify says failed), then paid with another card; its callback and the verify both settle it.
        const reference = (await initializePayment(h.gateway, m, { amount: 1500, email: buyer() })).body.data.reference as string;
        await http(h.sim.url() as string, 'POST', `/sim/transactions/${reference}/complete`, { token: h.secrets.test, body: { outcome: 'declined' } });
        const declined = await api(m, 'POST', '/payments/verify', { reference });
        await http(h.sim.url() as string, 'POST', `/sim/transactions/${reference}/complete`, { token: h.secrets.test, body: {} });
        const paid = await api(m, 'POST', '/payments/verify', { reference });
        await h.sim.idle();
        // The saved card: the provider answers 500 (unprocessed), then the retry with the same key is charged.
        const key = `charge-5xx-${randomBytes(6).toString('hex')}`;
        const before = callsTo('POST /transaction/charge_authorization');
        h.sim.setKnobs({ failNext: 1 });
        const first = await api(m, 'POST', '/payments/charge', { authorization_code: code, email, amount: 900 }, { 'Idempotency-Key': key });
        const retry = await sentAgain(() => api(m, 'POST', '/payments/charge', { authorization_code: code, email, amount: 900 }, { 'Idempotency-Key': key }));
        const charged = retry.body?.data?.reference as string;
        await h.sim.idle();
        const outcome = {
          checkout: [declined.body?.data?.status, paid.body?.data?.status, await postingsOf(reference), await successEventsOf(reference)],
          charge: [`${first.status} ${first.body?.code}`, `${retry.status} ${retry.body?.data?.status}`, await postingsOf(charged), await successEventsOf(charged)],
          chargeCalls: callsTo('POST /transaction/charge_authorization') - before,
        };
        const expected = { checkout: ['failed', 'success', 1, 1], charge: ['502 provider_error', '201 success', 1, 1], chargeCalls: 2 };
        if (JSON.stringify(outcome) !== JSON.stringify(expected)) wrong.push({ trial, outcome });
      }
      expect(wrong).toEqual([]);
    },
    timeoutFor(RETRY_TRIALS, 5_000),
  );

  it(
    `${EARLY_CALLBACK_TRIALS} refunds whose refund.processed callback arrives before the refund's own answer (late, or too late): one refund, one debit`,
    async () => {
      // When the gateway finished handling each refund callback.
      const callbacksHandled: number[] = [];
      const server = h.gateway.app.getHttpServer() as Server;
      const onRequest = (request: IncomingMessage, response: ServerResponse) => {
        if (request.url === '/api/provider/webhooks') response.once('finish', () => callbacksHandled.push(performance.now()));
      };
      server.on('request', onRequest);
      const wrong: unknown[] = [];
      let callbackFirst = 0;
      try {
        for (let trial = 0; trial < EARLY_CALLBACK_TRIALS; trial++) {
          const m = await createMerchant(h.gateway);
          const reference = (await paidPayment(h.gateway, m, { amount: 5000, email: buyer() })).body.data.reference as string;
          await h.sim.idle();
          const before = await availableBalance(h.gateway, m.key);
          const body = { payment_reference: reference, amount: 1200 };
          const headers = { 'Idempotency-Key': `refund-early-${randomBytes(6).toString('hex')}` };
          // Processed and settled at once (its callback sent) while its answer is held: past our
          // timeout on even trials, within it on odd ones (the answer then comes after the callback).
          const late = trial % 2 === 0;
          h.sim.setKnobs({ timeoutNext: 1, timeoutMode: 'after_processing', hangMs: late ? 2 * PROVIDER_TIMEOUT_MS : PROVIDER_TIMEOUT_MS / 2 });
          callbacksHandled.length = 0;
          const first = await api(m, 'POST', '/refunds', body, headers);
          const answeredAt = performance.now();
          await h.sim.idle();
          if (callbacksHandled.some((at) => at < answeredAt)) callbackFirst++;
          const retry = await sentAgain(() => api(m, 'POST', '/refunds', body, headers));
          await h.sim.idle();
          const atProvider = await http(h.sim.url() as string, 'GET', `/refund?transaction=${reference}`, { token: h.secrets.test });
          const ours = (await api(m, 'GET', `/refunds?payment=${reference}`)).body.data as Array<{ reference: string; status: string }>;
          const firstAnswer = first.status === 201 ? '201' : `${first.status} ${first.body?.code}`;
          const outcome = {
            // Within the timeout on a busy machine may still be past it: either answer is clear.
            first: firstAnswer === '504 gateway_timeout' || (!late && firstAnswer === '201') ? 'clear' : firstAnswer,
            retry: `${retry.status} ${retry.body?.data?.status}`,
            ours: ours.map((r) => r.status),
            atProvider: (atProvider.body.data as unknown[]).length,
            debited: before.minus(await availableBalance(h.gateway, m.key)).toString(),
            completedEvents: ours[0] ? await eventsFor(h, 'refund.completed', ours[0].reference) : 0,
          };
          const expected = { first: 'clear', retry: '201 processed', ours: ['processed'], atProvider: 1, debited: '1200.00', completedEvents: 1 };
          if (JSON.stringify(outcome) !== JSON.stringify(expected)) wrong.push({ trial, outcome });
        }
      } finally {
        server.off('request', onRequest);
      }
      expect(wrong).toEqual([]);
      // The race this is about did happen (the callback handled before the refund's answer came back).
      expect(callbackFirst).toBeGreaterThanOrEqual(1);
    },
    timeoutFor(EARLY_CALLBACK_TRIALS, 5_000),
  );

  describe('refunds, transfers and holds under faults: a clear 502/504, then the retry with the same Idempotency-Key takes effect once', () => {
    const FAULTS = {
      '5xx': { knobs: { failNext: 1 }, first: ['502 provider_error'] },
      'timeout, unprocessed': { knobs: { timeoutNext: 1, timeoutMode: 'before_processing' as const }, first: ['504 gateway_timeout'] },
      'timeout, processed': { knobs: { timeoutNext: 1, timeoutMode: 'after_processing' as const }, first: ['504 gateway_timeout'] },
      // Slow but within the timeout: answered the first time; the retry is the stored answer.
      slow: { knobs: { latencyMs: PROVIDER_TIMEOUT_MS / 4 }, first: ['200', '201'] },
    };
    type Fault = keyof typeof FAULTS;
    const faults = Object.keys(FAULTS) as Fault[];
    /** Sends the call with the fault armed, then again with the same key; the first answer, the retry's, and the provider calls made. */
    async function underFault(fault: Fault, call: string, send: () => Promise<HttpResult>): Promise<{ first: string; retry: HttpResult; calls: number }> {
      await h.sim.idle(); // a late callback's verify must not take the armed fault
      const before = callsTo(call);
      h.sim.setKnobs(FAULTS[fault].knobs);
      const first = await send();
      h.sim.setKnobs({ failNext: 0, timeoutNext: 0, latencyMs: 0 });
      const retry = await sentAgain(send);
      await h.sim.idle();
      const answer = first.status < 300 ? String(first.status) : `${first.status} ${first.body?.code}`;
      return { first: FAULTS[fault].first.includes(answer) ? 'as expected' : answer, retry, calls: callsTo(call) - before };
    }

    it('refunds', async () => {
      const wrong: unknown[] = [];
      for (const fault of faults) {
        const m = await createMerchant(h.gateway);
        const reference = (await paidPayment(h.gateway, m, { amount: 5000, email: buyer() })).body.data.reference as string;
        const before = await availableBalance(h.gateway, m.key);
        const key = `refund-fault-${randomBytes(6).toString('hex')}`;
        const { first, retry, calls } = await underFault(fault, 'POST /refund', () => api(m, 'POST', '/refunds', { payment_reference: reference, amount: 700 }, { 'Idempotency-Key': key }));
        const atProvider = await http(h.sim.url() as string, 'GET', `/refund?transaction=${reference}`, { token: h.secrets.test });
        const ours = (await api(m, 'GET', `/refunds?payment=${reference}`)).body.data as Array<{ reference: string; status: string }>;
        const outcome = {
          first,
          retry: `${retry.status} ${retry.body?.data?.reference === ours[0]?.reference}`,
          ours: ours.map((r) => r.status),
          atProvider: (atProvider.body.data as unknown[]).length,
          debited: before.minus(await availableBalance(h.gateway, m.key)).toString(),
          refundCalls: calls <= 2 ? 'at most 2' : calls,
        };
        const expected = { first: 'as expected', retry: '201 true', ours: ['processed'], atProvider: 1, debited: '700.00', refundCalls: 'at most 2' };
        if (JSON.stringify(outcome) !== JSON.stringify(expected)) wrong.push({ fault, outcome });
      }
      expect(wrong).toEqual([]);
    });

    it('transfers (live mode)', async () => {
      const { merchant: m } = await fundedLiveMerchant(h, 20_000);
      const recipient = await savedRecipient(h.gateway, m.key);
      const wrong: unknown[] = [];
      for (const fault of faults) {
        const before = await availableBalance(h.gateway, m.key);
        const key = `transfer-fault-${randomBytes(6).toString('hex')}`;
        const { first, retry, calls } = await underFault(fault, 'POST /transfer', () =>
          api(m, 'POST', '/transfers', { source: 'wallet', amount: 1000, recipient }, { 'Idempotency-Key': key }),
        );
        const reference = retry.body?.data?.reference as string;
        const atProvider = await http(h.sim.url() as string, 'GET', `/transfer/verify/${reference}`, { token: h.secrets.live });
        const outcome = {
          first,
          retry: retry.status,
          atProvider: atProvider.body?.data?.status,
          ours: (await api(m, 'GET', `/transfers/${reference}`)).body.data?.status,
          debited: before.minus(await availableBalance(h.gateway, m.key)).toString(),
          transferCalls: calls <= 2 ? 'at most 2' : calls,
        };
        const expected = { first: 'as expected', retry: 201, atProvider: 'success', ours: 'success', debited: '1000.00', transferCalls: 'at most 2' };
        if (JSON.stringify(outcome) !== JSON.stringify(expected)) wrong.push({ fault, outcome });
      }
      expect(wrong).toEqual([]);
    });

    it('holds: capture and release (cancel)', async () => {
      const { merchant: m, email } = await customerWithSavedCard(h);
      const hold = async () => (await api(m, 'POST', '/payment-intents', { capture_method: 'manual', amount: 3000, email })).body.data.intent_reference as string;
      const probeCapture = (reference: string) => http(h.sim.url() as string, 'POST', '/preauthorization/capture', { token: h.secrets.test, body: { reference } });
      const wrong: unknown[] = [];
      for (const fault of faults) {
        const captured = await hold();
        const capture = await underFault(fault, 'POST /preauthorization/capture', () =>
          api(m, 'POST', `/payment-intents/${captured}/capture`, undefined, { 'Idempotency-Key': `capture-${captured}` }),
        );
        // A cancel is the merchant's word: it answers `canceled` even when the provider fails, and
        // a release the provider did not take is owed, and made by the upkeep scan.
        const released = await hold();
        const release = await underFault(fault, 'POST /preauthorization/release', () =>
          api(m, 'POST', `/payment-intents/${released}/cancel`, undefined, { 'Idempotency-Key': `cancel-${released}` }),
        );
        await api(m, 'POST', '/sandbox/scans/payment-intent-expiry/run', {});
        const outcome = {
          capture: [capture.first, `${capture.retry.status} ${capture.retry.body?.data?.status}`, await postingsOf(captured), await successEventsOf(captured)],
          captureCalls: capture.calls <= 2 ? 'at most 2' : capture.calls,
          release: [`${release.retry.status} ${release.retry.body?.data?.status}`, (await api(m, 'GET', `/payment-intents/${released}`)).body.data.status],
          releasedAtProvider: (await probeCapture(released)).body?.message,
          heldBack: await postingsOf(released),
        };
        const expected = {
          capture: ['as expected', '200 succeeded', 1, 1],
          captureCalls: 'at most 2',
          release: ['200 canceled', 'canceled'],
          releasedAtProvider: outcome.releasedAtProvider?.includes('released') ? outcome.releasedAtProvider : 'released',
          heldBack: 0,
        };
        if (JSON.stringify(outcome) !== JSON.stringify(expected)) wrong.push({ fault, outcome });
      }
      expect(wrong).toEqual([]);
    });
  });

  it(
    `${RECONCILE_TRIALS} confirmations with no callback and no verify are found by the reconciliation job (two schedulers), credited once each, late callbacks and all`,
    async () => {
      const m = await createMerchant(h.gateway);
      const lost: Array<{ reference: string; rawBody: string }> = [];
      for (let trial = 0; trial < RECONCILE_TRIALS; trial++) lost.push(await paidWithoutCallback(m));
      const before = callsTo('GET /transaction/verify/:reference');
      const env = schedulerEnvFor(h, { PAYMENT_RECONCILE_INTERVAL_SECONDS: '1', PAYMENT_RECONCILE_AFTER_SECONDS: '1' });
      const schedulers = await Promise.all([startScheduler(env), startScheduler(env)]);
      try {
        // Half of them get their callback after all, late, racing the schedulers.
        const late = lost.filter((_, i) => i % 2 === 0).map(({ rawBody }) => deliver(rawBody, signCallbackBody(rawBody, h.secrets.test)));
        const deliveries = await Promise.all(late);
        for (const [i, delivery] of deliveries.entries()) if (delivery.status !== 200) await deliver(lost[2 * i].rawBody, signCallbackBody(lost[2 * i].rawBody, h.secrets.test));
        await waitFor(async () => (await query<{ n: number }>(`SELECT count(*)::int AS n FROM payments WHERE reference = ANY($1) AND status = 'success'`, [lost.map((l) => l.reference)]))[0].n === lost.length, {
          timeoutMs: 60_000,
          what: 'the schedulers to reconcile every lost confirmation',
        });
      } finally {
        await Promise.all(schedulers.map((s) => s.stop()));
      }
      const outcome = await Promise.all(lost.map(async ({ reference }) => [await postingsOf(reference), await successEventsOf(reference)]));
      expect(outcome).toEqual(lost.map(() => [1, 1]));
      // Asked by reference (each at least once), and no more than the two schedulers and the late callbacks need.
      expect(callsTo('GET /transaction/verify/:reference') - before).toBeGreaterThanOrEqual(RECONCILE_TRIALS / 2);
    },
    timeoutFor(1, 0),
  );

  /**
   * The breaker tests each run on an API instance of their own (same database and provider): a
   * breaker decides on the calls in its 10 s window, which must hold this test's calls only — not
   * the earlier tests' successes and failures, of which a fast machine fits more in the window.
   */
  async function onOwnInstance(test: (gateway: TestGateway, m: TestMerchant) => Promise<void>): Promise<void> {
    const gateway = await startGateway(schedulerEnvFor(h, gatewayEnv));
    try {
      await test(gateway, await createMerchant(gateway));
    } finally {
      await gateway.close();
    }
  }

  it('a 5xx storm: 502 provider_error, then the breaker answers at once without calling the provider, and recovers after its cool-down', () =>
    onOwnInstance(async (gateway, m) => {
      const before = callsTo('POST /transaction/initialize');
      h.sim.setKnobs({ failNext: 1_000 });
      const answers: Array<{ status: number; code: string; ms: number }> = [];
      for (let i = 0; i < STORM; i++) {
        const started = performance.now();
        const answer = await initializePayment(gateway, m, { amount: 1000, email: buyer() });
        answers.push({ status: answer.status, code: answer.body?.code, ms: performance.now() - started });
      }
      const reached = callsTo('POST /transaction/initialize') - before;
      expect(answers.every((a) => a.status === 502 && a.code === 'provider_error')).toBe(true);
      // The breaker opened once more than half of its window's calls (10 at least) had failed, and the
      // rest never left the gateway but for a probe after each cool-down.
      expect(reached).toBeGreaterThanOrEqual(10);
      // (Counted at the provider, not timed: its 500s come at once too, and a busy machine is slow.)
      expect(STORM - reached).toBeGreaterThanOrEqual(STORM / 4);

      // The provider is back: after the cool-down one probe goes through and calls flow again.
      h.sim.setKnobs({ failNext: 0 });
      await waitFor(async () => (await initializePayment(gateway, m, { amount: 1000, email: buyer() })).status === 201, {
        timeoutMs: 10 * BREAKER_RESET_MS,
        what: 'the breaker to close once the provider answers again',
      });
      expect((await initializePayment(gateway, m, { amount: 1000, email: buyer() })).status).toBe(201);
    }));

  it('a provider that hangs: 504 gateway_timeout after PROVIDER_TIMEOUT_MS, then the breaker stops the waiting', () =>
    onOwnInstance(async (gateway, m) => {
      const before = callsTo('POST /transaction/initialize');
      h.sim.setKnobs({ timeoutNext: 1_000 });
      const answers: Array<{ status: number; code: string; ms: number }> = [];
      for (let i = 0; i < 15; i++) {
        const started = performance.now();
        const answer = await initializePayment(gateway, m, { amount: 1000, email: buyer() });
        answers.push({ status: answer.status, code: answer.body?.code, ms: performance.now() - started });
      }
      const timedOut = answers.filter((a) => a.status === 504 && a.code === 'gateway_timeout');
      const paused = answers.filter((a) => a.status === 502 && a.code === 'provider_error');
      expect(timedOut.length + paused.length).toBe(answers.length);
      // At most the breaker's volume threshold (10 calls in its window) waited the whole timeout.
      expect(timedOut.length).toBeGreaterThanOrEqual(1);
      expect(timedOut.length).toBeLessThanOrEqual(10);
      expect(paused.length).toBeGreaterThanOrEqual(5);
      expect(Math.min(...timedOut.map((a) => a.ms))).toBeGreaterThanOrEqual(PROVIDER_TIMEOUT_MS * 0.9);
      // Paused answers never waited for the provider: only the timed-out calls reached it.
      expect(callsTo('POST /transaction/initialize') - before).toBe(timedOut.length);
      h.sim.setKnobs({ timeoutNext: 0 });
      await waitFor(async () => (await initializePayment(gateway, m, { amount: 1000, email: buyer() })).status === 201, {
        timeoutMs: 10 * BREAKER_RESET_MS,
        what: 'the breaker to close once the provider answers again',
      });
    }));

  it(`a hanging provider: ${HUNG_BURST} calls at once never hold more than PROVIDER_MAX_SOCKETS (${MAX_SOCKETS}) connections to it`, () =>
    onOwnInstance(async (gateway, m) => {
      await h.sim.idle();
      h.sim.setKnobs({ timeoutNext: 1_000 });
      Object.assign(sockets, { armed: true, most: 0, accepted: 0 });
      sockets.open.clear();
      let answers: HttpResult[];
      try {
        answers = await Promise.all(Array.from({ length: HUNG_BURST }, () => initializePayment(gateway, m, { amount: 1000, email: buyer() })));
      } finally {
        sockets.armed = false;
        h.sim.setKnobs({ timeoutNext: 0 });
      }
      // Every call is told the provider did not answer; the ones waiting for a socket waited inside the same timeout.
      expect(answers.map((a) => `${a.status} ${a.body?.code}`).filter((a) => a !== '504 gateway_timeout' && a !== '502 provider_error')).toEqual([]);
      expect(sockets.most).toBeLessThanOrEqual(MAX_SOCKETS);
      // Each timed-out call's socket is closed and a waiting call may open another: never beyond the cap at once.
      // The cap was reached: the calls did wait on each other, not on a breaker that answered them at once.
      expect(sockets.most).toBe(MAX_SOCKETS);
      await waitFor(async () => (await initializePayment(gateway, m, { amount: 1000, email: buyer() })).status === 201, {
        timeoutMs: 10 * BREAKER_RESET_MS,
        what: 'the breaker to close once the provider answers again',
      });
    }));
});
