import { RefundsService } from '@gateway/domain/refunds';
import { signCallbackBody } from '@gateway/provider-sim';
import { assertLedgerInvariants } from '@gateway/domain/ledger/testing';
import { DataSource } from 'typeorm';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, initializePayment, paidPayment, schedulerEnvFor, startPaymentsHarness, type PaymentsHarness } from './support/payments';
import { startScheduler } from './support/scheduler-process';

/** Polls `read` until `done` holds, failing with the last value after `timeoutMs`. */
async function waitUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('refunds', () => {
  let h: PaymentsHarness;
  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body, headers });
  const available = async (m: TestMerchant) => (await api(m, 'GET', '/wallet/balance')).body.data.available_balance as number;
  const events = async (name: string, reference: string) =>
    ((await h.gateway.app.get(DataSource).query(`SELECT 1 FROM events WHERE name = $1 AND data->>'reference' = $2`, [name, reference])) as unknown[]).length;
  /** A merchant with successful payments of these amounts; returns their references. */
  async function merchantWithPayments(...amounts: number[]): Promise<{ merchant: TestMerchant; references: string[] }> {
    const merchant = await createMerchant(h.gateway);
    const references: string[] = [];
    for (const amount of amounts) references.push((await paidPayment(h.gateway, merchant, { amount, email: buyer() })).body.data.reference);
    return { merchant, references };
  }

  beforeAll(async () => {
    // A short provider timeout, so the timeout tests below are quick — yet long enough that a
    // loaded machine's ordinary provider calls never reach it. One simulator for the whole file:
    // two would hand out the same provider refund ids, which callbacks are matched by.
    // A database of its own: its scheduler test ages a refund, which other files' schedulers must not take.
    h = await startPaymentsHarness({ PROVIDER_TIMEOUT_MS: '2000' }, { ownDatabase: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('refunds a payment in full, debits the wallet at once and completes when the provider confirms', async () => {
    // Two payments of 10,000 (net 9,740 each): the wallet covers a full refund of one.
    const { merchant, references } = await merchantWithPayments(10000, 10000);
    const res = await api(merchant, 'POST', '/refunds', { payment_reference: references[0], reason: 'customer request' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ reference: expect.stringMatching(/^RFD_/), payment_reference: references[0], amount: 10000, currency: 'NGN', reason: 'customer request' });
    expect(await available(merchant)).toBe(9480);
    expect((await api(merchant, 'GET', `/payments/${references[0]}`)).body.data.amount_refunded).toBe(10000);

    await h.sim.idle();
    const refund = (await api(merchant, 'GET', `/refunds/${res.body.data.reference}`)).body.data;
    expect(refund).toMatchObject({ status: 'processed', processed_at: expect.any(String) });
    expect(await events('refund.completed', res.body.data.reference)).toBe(1);
    const debit = (await api(merchant, 'GET', '/wallet/ledger?type=debit')).body.data;
    expect(debit).toMatchObject([{ type: 'debit', amount: 10000, reference: res.body.data.reference }]);

    const again = await api(merchant, 'POST', '/refunds', { payment_reference: references[0] });
    expect([again.status, again.body.code]).toEqual([409, 'invalid_state']);
  });

  it('refunds partially, never beyond what is left', async () => {
    const { merchant, references } = await merchantWithPayments(10000);
    const first = await api(merchant, 'POST', '/refunds', { payment_reference: references[0], amount: 2500.5 });
    expect([first.status, first.body.data.amount]).toEqual([201, 2500.5]);
    const tooMuch = await api(merchant, 'POST', '/refunds', { payment_reference: references[0], amount: 7499.51 });
    expect([tooMuch.status, tooMuch.body.code, tooMuch.body.errors.amount]).toEqual([400, 'validation_error', ['must be at most 7499.50 NGN']]);
    // 9,740 − 2,500.50 left in the wallet; the rest of the payment (7,499.50) is more than that.
    const rest = await api(merchant, 'POST', '/refunds', { payment_reference: references[0] });
    expect([rest.status, rest.body.code]).toEqual([422, 'insufficient_wallet_balance']);
    expect((await api(merchant, 'GET', `/payments/${references[0]}`)).body.data.amount_refunded).toBe(2500.5);
    expect(await available(merchant)).toBe(7239.5);
  });

  it('refuses a refund the wallet cannot cover, writing nothing', async () => {
    const { merchant, references } = await merchantWithPayments(1000);
    const res = await api(merchant, 'POST', '/refunds', { payment_reference: references[0] });
    expect([res.status, res.body.code]).toEqual([422, 'insufficient_wallet_balance']);
    expect((await api(merchant, 'GET', `/refunds?payment=${references[0]}`)).body.data).toHaveLength(0);
    expect((await api(merchant, 'GET', `/payments/${references[0]}`)).body.data.amount_refunded).toBe(0);
  });

  it('never overdraws under 16 concurrent partial refunds worth more than the balance', async () => {
    const { merchant, references } = await merchantWithPayments(10000);
    const results = await Promise.all(Array.from({ length: 16 }, () => api(merchant, 'POST', '/refunds', { payment_reference: references[0], amount: 700 })));
    const succeeded = results.filter((r) => r.status === 201).length;
    expect(results.every((r) => r.status === 201 || (r.status === 422 && r.body.code === 'insufficient_wallet_balance'))).toBe(true);
    // 9,740 available: at most 13 refunds of 700 fit.
    expect(succeeded).toBe(13);
    expect(await available(merchant)).toBe(640);
    expect((await api(merchant, 'GET', `/payments/${references[0]}`)).body.data.amount_refunded).toBe(9100);
    await assertLedgerInvariants(h.gateway.app.get(DataSource));
  });

  it('replays a refund for its idempotency key and keeps tenants apart', async () => {
    const { merchant, references } = await merchantWithPayments(10000);
    const headers = { 'Idempotency-Key': 'refund-1' };
    const first = await api(merchant, 'POST', '/refunds', { payment_reference: references[0], amount: 100 }, headers);
    const replay = await api(merchant, 'POST', '/refunds', { payment_reference: references[0], amount: 100 }, headers);
    expect(first.status).toBe(201);
    expect(replay.body.data.reference).toBe(first.body.data.reference);
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.text]).toEqual([201, 'true', first.text]);
    expect((await api(merchant, 'GET', `/payments/${references[0]}`)).body.data.amount_refunded).toBe(100);

    const other = await createMerchant(h.gateway);
    const foreign = await api(other, 'POST', '/refunds', { payment_reference: references[0], amount: 100 });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'payment_not_found']);
    const hidden = await api(other, 'GET', `/refunds/${first.body.data.reference}`);
    expect([hidden.status, hidden.body.code]).toEqual([404, 'refund_not_found']);
    expect((await api(other, 'GET', '/refunds')).body.data).toHaveLength(0);
  });

  it('refuses to refund a payment that has not succeeded, and bad input', async () => {
    const merchant = await createMerchant(h.gateway);
    const pending = (await initializePayment(h.gateway, merchant, { amount: 1000, email: buyer() })).body.data.reference;
    const res = await api(merchant, 'POST', '/refunds', { payment_reference: pending });
    expect([res.status, res.body.code]).toEqual([409, 'invalid_state']);
    for (const [body, field] of [
      [{}, 'payment_reference'],
      [{ payment_reference: pending, amount: 0 }, 'amount'],
      [{ payment_reference: pending, amount: 10.001 }, 'amount'],
      [{ payment_reference: pending, amount: '5' }, 'amount'],
    ] as const) {
      const refused = await api(merchant, 'POST', '/refunds', body);
      expect([refused.status, refused.body.code, Object.keys(refused.body.errors)]).toEqual([400, 'validation_error', [field]]);
    }
  });
  it('a refund the provider refuses becomes failed: the debit is reversed by a credit and amount_refunded restored', async () => {
    const { merchant, references } = await merchantWithPayments(10000, 10000);
    // Refunded at the provider behind the gateway's back: the provider refuses another refund.
    const direct = await http(h.sim.url() as string, 'POST', '/refund', { token: h.secrets.test, body: { transaction: references[0] } });
    expect(direct.status).toBe(200);
    await h.sim.idle();

    const res = await api(merchant, 'POST', '/refunds', { payment_reference: references[0], amount: 4000 });
    expect([res.status, res.body.data.status, res.body.data.amount]).toEqual([201, 'failed', 4000]);
    expect((await api(merchant, 'GET', `/refunds/${res.body.data.reference}`)).body.data.status).toBe('failed');
    expect(await available(merchant)).toBe(19480);
    expect((await api(merchant, 'GET', `/payments/${references[0]}`)).body.data.amount_refunded).toBe(0);
    const entries = (await api(merchant, 'GET', '/wallet/ledger?limit=100')).body.data.filter((e: { reference: string }) => e.reference === res.body.data.reference);
    expect(entries.map((e: { type: string; amount: number }) => [e.type, e.amount]).sort()).toEqual([
      ['credit', 4000],
      ['debit', 4000],
    ]);
    await h.sim.idle();
    expect(await events('refund.completed', res.body.data.reference)).toBe(0);
  });

  it("answers the other mode's key like a missing refund, in both directions", async () => {
    // Identity verified, so its live key is accepted and every 404 is about the mode.
    const merchant = await createMerchant(h.gateway, { identityVerified: true });
    const live = await merchant.issueKey({ mode: 'live' });
    const init = await initializePayment(h.gateway, live, { amount: 10000, email: buyer() });
    await http(h.sim.url() as string, 'POST', `/sim/transactions/${init.body.data.reference}/complete`, { token: h.secrets.live, body: {} });
    expect((await api(live, 'POST', '/payments/verify', { reference: init.body.data.reference })).body.data.status).toBe('success');
    const liveRefund = await api(live, 'POST', '/refunds', { payment_reference: init.body.data.reference, amount: 100 });
    expect(liveRefund.status).toBe(201);
    const testPayment = (await paidPayment(h.gateway, merchant, { amount: 10000, email: buyer() })).body.data.reference;
    const testRefund = await api(merchant, 'POST', '/refunds', { payment_reference: testPayment, amount: 100 });
    expect(testRefund.status).toBe(201);

    for (const [key, refund, payment] of [
      [merchant, liveRefund.body.data.reference, init.body.data.reference],
      [live, testRefund.body.data.reference, testPayment],
    ] as const) {
      const hidden = await api(key, 'GET', `/refunds/${refund}`);
      expect([hidden.status, hidden.body.code]).toEqual([404, 'refund_not_found']);
      const foreign = await api(key, 'POST', '/refunds', { payment_reference: payment, amount: 100 });
      expect([foreign.status, foreign.body.code]).toEqual([404, 'payment_not_found']);
      expect((await api(key, 'GET', `/refunds?payment=${payment}`)).body.data).toHaveLength(0);
    }
    expect((await api(live, 'GET', '/refunds')).body.data.map((r: { reference: string }) => r.reference)).toEqual([liveRefund.body.data.reference]);
  });

  it.each([409, 429])('a refund the provider answers %i (outcome unknown, not a refusal) stays pending with its debit; the same key completes it', async (status) => {
    const { merchant, references } = await merchantWithPayments(10000);
    const body = { payment_reference: references[0], amount: 1000 };
    const headers = { 'Idempotency-Key': `refund-busy-${status}` };
    h.sim.setKnobs({ failNext: 1, failStatus: status });
    try {
      const first = await api(merchant, 'POST', '/refunds', body, headers);
      expect([first.status, first.body.code]).toEqual([502, 'provider_error']);
      expect(h.sim.knobs().failNext).toBe(0);
    } finally {
      h.sim.setKnobs({ failNext: 0, failStatus: 500 });
    }
    const [pending] = (await api(merchant, 'GET', `/refunds?payment=${references[0]}`)).body.data;
    expect(pending).toMatchObject({ status: 'pending', amount: 1000 });
    await h.sim.idle();
    // Still held: not failed, no reversal credit, nothing completed.
    expect((await api(merchant, 'GET', `/refunds/${pending.reference}`)).body.data.status).toBe('pending');
    expect(await available(merchant)).toBe(9740 - 1000);
    expect((await api(merchant, 'GET', `/payments/${references[0]}`)).body.data.amount_refunded).toBe(1000);
    const entries = (await api(merchant, 'GET', '/wallet/ledger?limit=100')).body.data.filter((e: { reference: string }) => e.reference === pending.reference);
    expect(entries.map((e: { type: string; amount: number }) => [e.type, e.amount])).toEqual([['debit', 1000]]);
    expect(await events('refund.completed', pending.reference)).toBe(0);

    const retry = await api(merchant, 'POST', '/refunds', body, headers);
    expect([retry.status, retry.body.data.reference]).toEqual([201, pending.reference]);
    await h.sim.idle();
    expect((await api(merchant, 'GET', `/refunds/${pending.reference}`)).body.data.status).toBe('processed');
    expect(await events('refund.completed', pending.reference)).toBe(1);
    expect(await available(merchant)).toBe(9740 - 1000);
  });

  // Issue 12 item 1: Paystack's refund.* payloads carry transaction_reference, refund_reference and a string amount, no id.
  it('settles a refund from its Paystack-shaped callback once; a redelivery changes nothing', async () => {
    const { merchant, references } = await merchantWithPayments(4000);
    h.sim.setKnobs({ autoComplete: false });
    let callback: { rawBody: string; signature: string } | undefined;
    try {
      const created = await api(merchant, 'POST', '/refunds', { payment_reference: references[0], amount: 1500 });
      expect([created.status, created.body.data.status]).toEqual([201, 'pending']);
      const [atProvider] = (await http(h.sim.url() as string, 'GET', `/refund?transaction=${references[0]}`, { token: h.secrets.test })).body.data as Array<{ id: number }>;
      // Settled at the provider with its callback held back: the test delivers the documented payload itself.
      h.sim.setWebhookUrl(undefined);
      try {
        await http(h.sim.url() as string, 'POST', `/sim/refunds/${atProvider.id}/complete`, { token: h.secrets.test, body: { outcome: 'processed' } });
      } finally {
        h.sim.setWebhookUrl(`${h.gateway.baseUrl}/api/provider/webhooks`);
      }
      const data = { status: 'processed', transaction_reference: references[0], refund_reference: '132013318360', amount: '150000', currency: 'NGN', processor: 'mpgs_zen', customer: { first_name: null, last_name: null, email: 'x@example.com' }, integration: 412829, domain: 'test' };
      const rawBody = JSON.stringify({ event: 'refund.processed', data });
      callback = { rawBody, signature: signCallbackBody(rawBody, h.secrets.test) };
    } finally {
      h.sim.setKnobs({ autoComplete: true });
    }
    const deliver = () => http(h.gateway.baseUrl, 'POST', '/api/provider/webhooks', { rawBody: callback?.rawBody, headers: { 'x-paystack-signature': callback?.signature as string } });
    expect((await deliver()).status).toBe(200);
    const [refund] = (await api(merchant, 'GET', `/refunds?payment=${references[0]}`)).body.data;
    expect(refund).toMatchObject({ status: 'processed', amount: 1500 });
    expect((await deliver()).status).toBe(200);
    expect(await events('refund.completed', refund.reference)).toBe(1);
    expect((await api(merchant, 'GET', `/payments/${references[0]}`)).body.data.amount_refunded).toBe(1500);
  });

  describe('when the provider does not answer in time', () => {
    // Held well past the gateway's 2 s provider timeout.
    const hangMs = 5000;
    async function paid(amount: number): Promise<{ merchant: TestMerchant; reference: string }> {
      const { merchant, references } = await merchantWithPayments(amount);
      // The payment's own callback (and the verify it makes the gateway send) must be done before a
      // test arms a one-shot timeout knob: arriving late on a busy machine, it would take the knob.
      await h.sim.idle();
      return { merchant, reference: references[0] };
    }

    it('answers 504 and keeps the refund pending with its debit; the same key resumes it, once', async () => {
      const { merchant, reference } = await paid(10000);
      h.sim.setKnobs({ timeoutNext: 1, hangMs, timeoutMode: 'before_processing' });
      const body = { payment_reference: reference, amount: 3000, reason: 'damaged' };
      const headers = { 'Idempotency-Key': 'refund-timeout-1' };
      const first = await api(merchant, 'POST', '/refunds', body, headers);
      expect([first.status, first.body.code]).toEqual([504, 'gateway_timeout']);
      const [pending] = (await api(merchant, 'GET', `/refunds?payment=${reference}`)).body.data;
      expect(pending).toMatchObject({ status: 'pending', amount: 3000 });
      expect(await available(merchant)).toBe(9740 - 3000);

      const retry = await api(merchant, 'POST', '/refunds', body, headers);
      expect([retry.status, retry.body.data.reference]).toEqual([201, pending.reference]);
      await h.sim.idle();
      expect((await api(merchant, 'GET', `/refunds/${pending.reference}`)).body.data.status).toBe('processed');
      expect(await events('refund.completed', pending.reference)).toBe(1);
      expect((await api(merchant, 'GET', `/payments/${reference}`)).body.data.amount_refunded).toBe(3000);
      expect(await available(merchant)).toBe(9740 - 3000);
    });

    it('refuses the same key with another amount or reason (422 idempotency_key_reused)', async () => {
      const { merchant, reference } = await paid(10000);
      for (const [key, changed] of [
        ['refund-changed-amount', { amount: 2999 }],
        ['refund-changed-reason', { reason: 'other' }],
        ['refund-amount-omitted', { amount: undefined }],
      ] as const) {
        const body = { payment_reference: reference, amount: 1000, reason: 'damaged' };
        h.sim.setKnobs({ timeoutNext: 1, hangMs, timeoutMode: 'before_processing' });
        const first = await api(merchant, 'POST', '/refunds', body, { 'Idempotency-Key': key });
        expect([key, first.status]).toEqual([key, 504]);
        // A 5xx is not stored, so this reaches the refund service, which knows the key.
        const reused = await api(merchant, 'POST', '/refunds', { ...body, ...changed }, { 'Idempotency-Key': key });
        expect([key, reused.status, reused.body.code]).toEqual([key, 422, 'idempotency_key_reused']);
      }
      expect((await api(merchant, 'GET', `/payments/${reference}`)).body.data.amount_refunded).toBe(3000);
    });

    it('is left alone while recent, then resubmitted by the resubmission scan (RefundsService) when nobody retries, and confirmed', async () => {
      const { merchant, reference } = await paid(10000);
      h.sim.setKnobs({ timeoutNext: 1, hangMs, timeoutMode: 'before_processing' });
      const first = await api(merchant, 'POST', '/refunds', { payment_reference: reference, amount: 500 });
      expect(first.status).toBe(504);
      const [pending] = (await api(merchant, 'GET', `/refunds?payment=${reference}`)).body.data;
      const refunds = h.gateway.app.get(RefundsService, { strict: false });
      // Too recent: a request may still be submitting it.
      expect(await refunds.resubmitUnaccepted()).toBe(0);
      const start = h.gateway.clock.now();
      try {
        h.gateway.clock.advance(10 * 60_000);
        expect(await refunds.resubmitUnaccepted()).toBeGreaterThanOrEqual(1);
      } finally {
        h.gateway.clock.set(start);
      }
      await h.sim.idle();
      expect((await api(merchant, 'GET', `/refunds/${pending.reference}`)).body.data.status).toBe('processed');
      expect(await events('refund.completed', pending.reference)).toBe(1);
    });

    it("is confirmed by the provider's callback although its provider id was never stored", async () => {
      const { merchant, reference } = await paid(10000);
      // The provider makes the refund but answers after the gateway gave up: we never learn its id.
      // It settles (and calls back) only after that late answer is out: until then the provider
      // answers the gateway's re-ask for it "409 still being processed", and its few quick callback
      // retries would run out. Both are the simulator's own timers, so the order is certain.
      h.sim.setKnobs({ timeoutNext: 1, hangMs, timeoutMode: 'after_processing', transferDelayMs: hangMs + 2000 });
      try {
        const first = await api(merchant, 'POST', '/refunds', { payment_reference: reference, amount: 700 });
        expect(first.status).toBe(504);
      } finally {
        h.sim.setKnobs({ transferDelayMs: 0 });
      }
      const [pending] = (await api(merchant, 'GET', `/refunds?payment=${reference}`)).body.data;
      expect(pending.status).toBe('pending');
      // Wait for the callback's effect, not for a time.
      await waitUntil(async () => (await api(merchant, 'GET', `/refunds/${pending.reference}`)).body.data.status, (status) => status === 'processed', 30_000);
      await h.sim.idle();
      expect((await api(merchant, 'GET', `/refunds/${pending.reference}`)).body.data.status).toBe('processed');
      expect(await events('refund.completed', pending.reference)).toBe(1);
      expect((await api(merchant, 'GET', `/payments/${reference}`)).body.data.amount_refunded).toBe(700);
    });

    // Issue 12 item 2: Paystack's /refund takes no idempotency key (nor does the simulator): asking again refunds again.
    it('a retry after a lost answer adopts the refund the provider made instead of refunding twice', async () => {
      const { merchant, reference } = await paid(10000);
      h.sim.setKnobs({ timeoutNext: 1, hangMs, timeoutMode: 'after_processing', autoComplete: false });
      try {
        const body = { payment_reference: reference, amount: 5000 };
        const headers = { 'Idempotency-Key': 'refund-lost-answer-1' };
        const first = await api(merchant, 'POST', '/refunds', body, headers);
        expect(first.status).toBe(504);
        const retry = await api(merchant, 'POST', '/refunds', body, headers);
        expect([retry.status, retry.body.data.status]).toEqual([201, 'pending']);
        const atProvider = (await http(h.sim.url() as string, 'GET', `/refund?transaction=${reference}`, { token: h.secrets.test })).body.data as Array<{ id: number; amount: number }>;
        expect(atProvider.map((r) => r.amount)).toEqual([500000]);
        await http(h.sim.url() as string, 'POST', `/sim/refunds/${atProvider[0].id}/complete`, { token: h.secrets.test, body: { outcome: 'processed' } });
        await h.sim.idle();
        const refund = (await api(merchant, 'GET', `/refunds/${retry.body.data.reference}`)).body.data;
        expect(refund.status).toBe('processed');
        expect(await events('refund.completed', refund.reference)).toBe(1);
        expect((await api(merchant, 'GET', `/payments/${reference}`)).body.data.amount_refunded).toBe(5000);
      } finally {
        h.sim.setKnobs({ autoComplete: true });
      }
    });

    it('is resubmitted by a running scheduler process (its resubmission scan) when nobody retries, and confirmed', async () => {
      const { merchant, reference } = await paid(10000);
      h.sim.setKnobs({ timeoutNext: 1, hangMs, timeoutMode: 'before_processing' });
      const first = await api(merchant, 'POST', '/refunds', { payment_reference: reference, amount: 600 });
      expect(first.status).toBe(504);
      const [pending] = (await api(merchant, 'GET', `/refunds?payment=${reference}`)).body.data;
      expect(pending).toMatchObject({ status: 'pending', amount: 600 });
      // The scheduler runs on the real clock: make the refund older than the scan's wait.
      await h.gateway.app.get(DataSource).query(`UPDATE refunds SET updated_at = now() - interval '10 minutes' WHERE reference = $1`, [pending.reference]);
      // The scan every second instead of every minute, and a refund untouched for 3 s is due instead
      // of 2 minutes (longer than the scheduler's provider timeout, as the configuration requires):
      // a lost callback's reconciliation comes seconds after the resubmission, not minutes.
      const scheduler = await startScheduler(schedulerEnvFor(h, { PROVIDER_TIMEOUT_MS: '2000', REFUND_RESUBMIT_INTERVAL_SECONDS: '1', REFUND_RESUBMIT_AFTER_SECONDS: '3' }));
      try {
        const status = await waitUntil(async () => (await api(merchant, 'GET', `/refunds/${pending.reference}`)).body.data.status, (s) => s !== 'pending', 60_000);
        expect(status).toBe('processed');
        expect(scheduler.output()).toMatch(/Resubmitted \d+ refunds not yet accepted by the provider/);
      } finally {
        await scheduler.stop();
      }
      await h.sim.idle();
      expect(await events('refund.completed', pending.reference)).toBe(1);
      expect((await api(merchant, 'GET', `/payments/${reference}`)).body.data.amount_refunded).toBe(600);
      expect(await available(merchant)).toBe(9740 - 600);
    }, 90_000);
  });
});
