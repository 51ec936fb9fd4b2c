import { PaymentIntentsUpkeepService } from '@gateway/domain/payment-intents';
import { PaymentProvider } from '@gateway/provider';
import { DataSource } from 'typeorm';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, customerWithSavedCard, eventsFor, initializePayment, startPaymentsHarness, type PaymentsHarness } from './support/payments';

describe('payment intents: hold, capture, cancel, expiry', () => {
  let h: PaymentsHarness;
  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown) => http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body });
  const available = async (m: TestMerchant) => (await api(m, 'GET', '/wallet/balance')).body.data.available_balance as number;
  const events = (name: string, reference: string) => eventsFor(h, name, reference);

  const hold = (m: TestMerchant, body: Record<string, unknown>) => api(m, 'POST', '/payment-intents', { capture_method: 'manual', ...body });
  /**
   * Asks the simulator itself to capture the hold: refused with "released" once the gateway has
   * released it. (Were it still held, this would capture it — and the test fail, as it should.)
   */
  const providerCapture = (harness: PaymentsHarness, reference: string) =>
    http(harness.sim.url() as string, 'POST', '/preauthorization/capture', { token: harness.secrets.test, body: { reference } });
  const expectReleasedAtProvider = async (harness: PaymentsHarness, reference: string) => {
    const probe = await providerCapture(harness, reference);
    expect([reference, probe.status, probe.body.message]).toEqual([reference, 400, expect.stringContaining('released')]);
  };

  beforeAll(async () => {
    h = await startPaymentsHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it("holds on the customer's saved card and captures it into a credited payment", async () => {
    const { merchant, email } = await customerWithSavedCard(h);
    const before = await available(merchant);
    const created = await hold(merchant, { amount: 10000, email, metadata: { order: 'o-1' } });
    expect(created.status).toBe(201);
    const now = h.gateway.clock.now().getTime();
    expect(created.body.data).toMatchObject({ intent_reference: expect.stringMatching(/^PI-/), status: 'requires_capture', amount: 10000, capture_method: 'manual', payment_reference: null });
    expect(new Date(created.body.data.expires_at).getTime()).toBe(now + 7 * 86_400_000);
    expect(await available(merchant)).toBe(before);

    const ref = created.body.data.intent_reference;
    const captured = await api(merchant, 'POST', `/payment-intents/${ref}/capture`);
    expect(captured.body.data).toMatchObject({ status: 'succeeded', captured_amount: 10000, payment_reference: ref });
    expect((await api(merchant, 'GET', `/payments/${ref}`)).body.data).toMatchObject({ status: 'success', amount: 10000, net_amount: 9740 });
    expect(await available(merchant)).toBe(before + 9740);
    expect(await events('payment.success', ref)).toBe(1);
    // Capturing again answers the same, and credits nothing more.
    expect((await api(merchant, 'POST', `/payment-intents/${ref}/capture`)).body.data.status).toBe('succeeded');
    expect(await available(merchant)).toBe(before + 9740);
  });

  it('captures a lower amount than the hold', async () => {
    const { merchant, email, code } = await customerWithSavedCard(h);
    const ref = (await hold(merchant, { amount: 5000, email, authorization_code: code })).body.data.intent_reference;
    const tooMuch = await api(merchant, 'POST', `/payment-intents/${ref}/capture`, { amount: 5000.01 });
    expect([tooMuch.status, tooMuch.body.code]).toEqual([400, 'validation_error']);
    const captured = await api(merchant, 'POST', `/payment-intents/${ref}/capture`, { amount: 3000 });
    expect(captured.body.data).toMatchObject({ status: 'succeeded', amount: 5000, captured_amount: 3000 });
    expect((await api(merchant, 'GET', `/payments/${ref}`)).body.data).toMatchObject({ amount: 3000, net_amount: 2845 }); // 3,000 − 10 − (45 + 100)
  });

  it('cancels with no fee, after which capture is refused', async () => {
    const { merchant, email } = await customerWithSavedCard(h);
    const before = await available(merchant);
    const ref = (await hold(merchant, { amount: 2000, email })).body.data.intent_reference;
    expect((await api(merchant, 'POST', `/payment-intents/${ref}/cancel`)).body.data.status).toBe('canceled');
    const late = await api(merchant, 'POST', `/payment-intents/${ref}/capture`);
    expect([late.status, late.body.code]).toEqual([409, 'invalid_state']);
    expect(late.body.message).toContain('canceled');
    expect(await available(merchant)).toBe(before);
  });

  it('lets exactly one of a racing capture and cancel win', async () => {
    for (let i = 0; i < 4; i++) {
      const { merchant, email } = await customerWithSavedCard(h);
      const ref = (await hold(merchant, { amount: 1500, email })).body.data.intent_reference;
      const [capture, cancel] = await Promise.all([api(merchant, 'POST', `/payment-intents/${ref}/capture`), api(merchant, 'POST', `/payment-intents/${ref}/cancel`)]);
      const winners = [capture, cancel].filter((r) => r.status === 200);
      expect(winners).toHaveLength(1);
      expect([capture, cancel].find((r) => r.status !== 200)?.body.code).toBe('invalid_state');
      const final = (await api(merchant, 'GET', `/payment-intents/${ref}`)).body.data.status;
      expect(final).toBe(capture.status === 200 ? 'succeeded' : 'canceled');
    }
  });

  it('expires a hold after 7 days (injected clock), refusing capture', async () => {
    const { merchant, email } = await customerWithSavedCard(h);
    const ref = (await hold(merchant, { amount: 1000, email })).body.data.intent_reference;
    const start = h.gateway.clock.now();
    try {
      h.gateway.clock.advance(7 * 86_400_000 + 60_000);
      const late = await api(merchant, 'POST', `/payment-intents/${ref}/capture`);
      expect([late.status, late.body.code]).toEqual([409, 'invalid_state']);
      const scan = await api(merchant, 'POST', '/sandbox/scans/payment-intent-expiry/run', {});
      expect(scan.body.data).toEqual({ scan: 'payment-intent-expiry', affected: 1 });
      expect((await api(merchant, 'GET', `/payment-intents/${ref}`)).body.data.status).toBe('expired');
      await expectReleasedAtProvider(h, ref);
    } finally {
      h.gateway.clock.set(start);
    }
  });

  it('retries releases an expiry scan could not make (the provider failed mid-scan) on its next run', async () => {
    const { merchant, email } = await customerWithSavedCard(h);
    const refs: string[] = [];
    for (const amount of [1100, 1200, 1300]) refs.push((await hold(merchant, { amount, email })).body.data.intent_reference);
    const start = h.gateway.clock.now();
    try {
      h.gateway.clock.advance(7 * 86_400_000 + 60_000);
      // The provider answers the scan's first release with a 500: that hold stays owed.
      h.sim.setKnobs({ failNext: 1 });
      const first = await api(merchant, 'POST', '/sandbox/scans/payment-intent-expiry/run', {});
      expect(first.body.data.affected).toBe(3);
      expect(h.sim.knobs().failNext).toBe(0);
      const second = await api(merchant, 'POST', '/sandbox/scans/payment-intent-expiry/run', {});
      expect(second.body.data.affected).toBe(0);
      for (const ref of refs) {
        expect((await api(merchant, 'GET', `/payment-intents/${ref}`)).body.data.status).toBe('expired');
        await expectReleasedAtProvider(h, ref);
      }
    } finally {
      h.gateway.clock.set(start);
    }
  });

  it('keeps a cancel whose release failed, and releases the hold on the next scan', async () => {
    const { merchant, email } = await customerWithSavedCard(h);
    const ref = (await hold(merchant, { amount: 2500, email })).body.data.intent_reference;
    h.sim.setKnobs({ failNext: 1 });
    const canceled = await api(merchant, 'POST', `/payment-intents/${ref}/cancel`);
    expect([canceled.status, canceled.body.data.status]).toEqual([200, 'canceled']);
    expect(h.sim.knobs().failNext).toBe(0);
    await api(merchant, 'POST', '/sandbox/scans/payment-intent-expiry/run', {});
    await expectReleasedAtProvider(h, ref);
    // Cancelling again is a forbidden move: 409 naming the status (decisions.md).
    const again = await api(merchant, 'POST', `/payment-intents/${ref}/cancel`);
    expect([again.status, again.body.code, again.body.message]).toEqual([409, 'invalid_state', expect.stringContaining('canceled')]);
  });

  it('answers 402 when the provider refuses the capture: nothing is credited and the hold still awaits capture', async () => {
    const { merchant, email } = await customerWithSavedCard(h);
    const before = await available(merchant);
    const ref = (await hold(merchant, { amount: 4000, email })).body.data.intent_reference;
    // Released at the provider behind the gateway's back: the provider refuses to capture it.
    const released = await http(h.sim.url() as string, 'POST', '/preauthorization/release', { token: h.secrets.test, body: { reference: ref } });
    expect(released.status).toBe(200);

    const refused = await api(merchant, 'POST', `/payment-intents/${ref}/capture`);
    expect([refused.status, refused.body.code]).toEqual([402, 'authorization_declined']);
    expect(refused.body.message).toContain('released');
    expect((await api(merchant, 'GET', `/payment-intents/${ref}`)).body.data).toMatchObject({ status: 'requires_capture', captured_amount: null, payment_reference: null });
    expect(await available(merchant)).toBe(before);
    expect(await events('payment.success', ref)).toBe(0);
    expect((await api(merchant, 'GET', `/payments/${ref}`)).status).toBe(404);
    // Still the merchant's to cancel.
    expect((await api(merchant, 'POST', `/payment-intents/${ref}/cancel`)).body.data.status).toBe('canceled');
  });

  it('a new customer gets requires_action; refuses another tenant’s card, and a hold the issuer declines', async () => {
    const merchant = await createMerchant(h.gateway);
    // No saved card is no longer refused: the customer authorizes on the hosted page (payment-intents-new-customer.e2e-spec.ts).
    const none = await hold(merchant, { amount: 1000, email: buyer() });
    expect([none.status, none.body.data.status]).toEqual([201, 'requires_action']);

    const { email, code } = await customerWithSavedCard(h);
    const foreign = await hold(merchant, { amount: 1000, email, authorization_code: code });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'authorization_not_found']);

    // This test card pays at checkout but its later holds are refused (insufficient funds).
    const declining = await customerWithSavedCard(h, '5399838383838381');
    const declined = await hold(declining.merchant, { amount: 1000, email: declining.email });
    expect([declined.status, declined.body.code]).toEqual([402, 'authorization_declined']);

    const badMethod = await api(merchant, 'POST', '/payment-intents', { amount: 1000, email, capture_method: 'automatic' });
    expect([badMethod.status, Object.keys(badMethod.body.errors)]).toEqual([400, ['capture_method']]);
  });

  it("answers the other mode's key like a missing intent", async () => {
    // An identity-verified merchant, so its live key is accepted and the 404 is about the mode.
    const merchant = await createMerchant(h.gateway, { identityVerified: true });
    const email = buyer();
    const init = await initializePayment(h.gateway, merchant, { amount: 1000, email });
    await http(h.sim.url() as string, 'POST', `/sim/transactions/${init.body.data.reference}/complete`, { token: h.secrets.test, body: { card: '4084084084084081' } });
    expect((await api(merchant, 'POST', '/payments/verify', { reference: init.body.data.reference })).body.data.status).toBe('success');
    const ref = (await hold(merchant, { amount: 1000, email })).body.data.intent_reference;

    const live = await merchant.issueKey({ mode: 'live' });
    expect((await api(live, 'GET', '/payments')).status).toBe(200);
    for (const [method, path] of [['GET', `/payment-intents/${ref}`], ['POST', `/payment-intents/${ref}/capture`], ['POST', `/payment-intents/${ref}/cancel`]]) {
      const res = await api(live, method, path);
      expect([path, res.status, res.body.code]).toEqual([path, 404, 'payment_intent_not_found']);
    }
    expect((await api(merchant, 'GET', `/payment-intents/${ref}`)).body.data.status).toBe('requires_capture');
  });

  it("answers another merchant's intent like a missing one", async () => {
    const { merchant, email } = await customerWithSavedCard(h);
    const ref = (await hold(merchant, { amount: 1000, email })).body.data.intent_reference;
    const other = await createMerchant(h.gateway);
    for (const [method, path] of [['GET', `/payment-intents/${ref}`], ['POST', `/payment-intents/${ref}/capture`], ['POST', `/payment-intents/${ref}/cancel`]]) {
      const res = await api(other, method, path);
      expect([path, res.status, res.body.code]).toEqual([path, 404, 'payment_intent_not_found']);
    }
  });
  // Issue 12: Paystack's preauthorization is for ZAR only, and it never serves GBP.
  describe('against a provider with Paystack\'s capabilities (PROVIDER_TEST_PROFILE=paystack, NGN enabled)', () => {
    let paystack: PaymentsHarness;
    beforeAll(async () => {
      paystack = await startPaymentsHarness({ PROVIDER_TEST_PROFILE: 'paystack', PROVIDER_TEST_CURRENCIES: 'NGN' });
    });
    afterAll(async () => {
      await paystack?.close();
    });
    const call = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown) => http(paystack.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body });

    it('refuses a hold in NGN with 422 capability_not_supported before anything is written or sent', async () => {
      const { merchant, email, code } = await customerWithSavedCard(paystack);
      const reserve = jest.spyOn(paystack.gateway.app.get(PaymentProvider, { strict: false }), 'reserveAuthorization');
      try {
        const refused = await call(merchant, 'POST', '/payment-intents', { capture_method: 'manual', amount: 5000, email, authorization_code: code });
        expect([refused.status, refused.body.code, Object.keys(refused.body.errors ?? {})]).toEqual([422, 'capability_not_supported', ['currency']]);
        expect(reserve).not.toHaveBeenCalled();
      } finally {
        reserve.mockRestore();
      }
      const rows = await paystack.gateway.app.get(DataSource).query(`SELECT 1 FROM payment_intents WHERE developer_id = $1`, [merchant.developerId]);
      expect(rows).toHaveLength(0);
    });

    it('refuses a payment in GBP (initialize and charge) with 422 capability_not_supported, writing nothing', async () => {
      const { merchant, email, code } = await customerWithSavedCard(paystack);
      const initialize = await call(merchant, 'POST', '/payments/initialize', { amount: 1000, email, currency: 'GBP' });
      expect([initialize.status, initialize.body.code]).toEqual([422, 'capability_not_supported']);
      const charge = await call(merchant, 'POST', '/payments/charge', { amount: 1000, email, currency: 'GBP', authorization_code: code });
      expect([charge.status, charge.body.code]).toEqual([422, 'capability_not_supported']);
      const rows = await paystack.gateway.app.get(DataSource).query(`SELECT currency FROM payments WHERE developer_id = $1`, [merchant.developerId]);
      expect(rows).toEqual([{ currency: 'NGN' }]);
    });
  });

  describe('when the provider does not answer in time', () => {
    let slow: PaymentsHarness;
    const call = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      http(slow.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body, headers });
    const balance = async (m: TestMerchant) => (await call(m, 'GET', '/wallet/balance')).body.data.available_balance as number;
    const intentsOf = async (m: TestMerchant) =>
      (await slow.gateway.app.get(DataSource).query(`SELECT reference, status FROM payment_intents WHERE developer_id = $1`, [m.developerId])) as Array<{ reference: string; status: string }>;

    // A 2 s provider timeout: quick, yet never reached by a loaded machine's ordinary calls; a hung
    // call is held well past it.
    const HANG_MS = 5000;
    beforeAll(async () => {
      slow = await startPaymentsHarness({ PROVIDER_TIMEOUT_MS: '2000' });
    });
    afterAll(async () => {
      await slow?.close();
    });

    it('capture: 504 while the provider captured, never `succeeded` before the credit; the same key then credits once', async () => {
      const { merchant, email } = await customerWithSavedCard(slow);
      const before = await balance(merchant);
      const ref = (await call(merchant, 'POST', '/payment-intents', { capture_method: 'manual', amount: 6000, email })).body.data.intent_reference;
      // The provider captures, but answers after the gateway gave up.
      slow.sim.setKnobs({ timeoutNext: 1, hangMs: HANG_MS, timeoutMode: 'after_processing' });
      const headers = { 'Idempotency-Key': `capture-${ref}` };
      const first = await call(merchant, 'POST', `/payment-intents/${ref}/capture`, { amount: 5000 }, headers);
      expect([first.status, first.body.code]).toEqual([504, 'gateway_timeout']);
      expect((await call(merchant, 'GET', `/payment-intents/${ref}`)).body.data).toMatchObject({ status: 'requires_capture', captured_amount: null });
      expect(await balance(merchant)).toBe(before);
      // A capture is under way: the hold can no longer be cancelled, and another amount is refused.
      const cancel = await call(merchant, 'POST', `/payment-intents/${ref}/cancel`);
      expect([cancel.status, cancel.body.code]).toEqual([409, 'invalid_state']);
      const other = await call(merchant, 'POST', `/payment-intents/${ref}/capture`, { amount: 4000 });
      expect([other.status, other.body.code]).toEqual([409, 'invalid_state']);

      const retry = await call(merchant, 'POST', `/payment-intents/${ref}/capture`, { amount: 5000 }, headers);
      expect([retry.status, retry.body.data.status, retry.body.data.captured_amount]).toEqual([200, 'succeeded', 5000]);
      await slow.sim.idle();
      // 5,000 − 10 − (75 + 100)
      expect(await balance(merchant)).toBe(before + 4815);
      expect(await eventsFor(slow, 'payment.success', ref)).toBe(1);
      expect((await call(merchant, 'POST', `/payment-intents/${ref}/capture`, { amount: 5000 })).body.data.status).toBe('succeeded');
      expect(await balance(merchant)).toBe(before + 4815);
    });

    it('capture: a new request resumes a capture the provider never received', async () => {
      const { merchant, email } = await customerWithSavedCard(slow);
      const before = await balance(merchant);
      const ref = (await call(merchant, 'POST', '/payment-intents', { capture_method: 'manual', amount: 3000, email })).body.data.intent_reference;
      slow.sim.setKnobs({ timeoutNext: 1, hangMs: HANG_MS, timeoutMode: 'before_processing' });
      const first = await call(merchant, 'POST', `/payment-intents/${ref}/capture`);
      expect([first.status, first.body.code]).toEqual([504, 'gateway_timeout']);
      expect(await balance(merchant)).toBe(before);
      const retry = await call(merchant, 'POST', `/payment-intents/${ref}/capture`);
      expect([retry.status, retry.body.data.status, retry.body.data.captured_amount]).toEqual([200, 'succeeded', 3000]);
      await slow.sim.idle();
      // 3,000 − 10 − (45 + 100)
      expect(await balance(merchant)).toBe(before + 2845);
      expect(await eventsFor(slow, 'payment.success', ref)).toBe(1);
    });

    it('create: 504 while the provider placed the hold; the same key returns that intent and places no second hold', async () => {
      const { merchant, email } = await customerWithSavedCard(slow);
      const reserve = jest.spyOn(slow.gateway.app.get(PaymentProvider, { strict: false }), 'reserveAuthorization');
      try {
        slow.sim.setKnobs({ timeoutNext: 1, hangMs: HANG_MS, timeoutMode: 'after_processing' });
        const body = { capture_method: 'manual', amount: 2000, email, metadata: { order: 'o-9' } };
        const headers = { 'Idempotency-Key': 'hold-o-9' };
        const first = await call(merchant, 'POST', '/payment-intents', body, headers);
        expect([first.status, first.body.code]).toEqual([504, 'gateway_timeout']);
        const retry = await call(merchant, 'POST', '/payment-intents', body, headers);
        expect(retry.status).toBe(201);
        expect(retry.body.data).toMatchObject({ intent_reference: expect.stringMatching(/^PI-/), status: 'requires_capture', amount: 2000 });
        // Both attempts asked the provider for the same hold, under the same reference.
        expect(new Set(reserve.mock.calls.map(([, input]) => input.reference))).toEqual(new Set([retry.body.data.intent_reference]));
        expect(await intentsOf(merchant)).toEqual([{ reference: retry.body.data.intent_reference, status: 'requires_capture' }]);
        // The key belongs to that intent: another amount under it is refused.
        const changed = await call(merchant, 'POST', '/payment-intents', { ...body, amount: 2500 }, headers);
        expect([changed.status, changed.body.code]).toEqual([422, 'idempotency_key_reused']);
        expect((await call(merchant, 'POST', `/payment-intents/${retry.body.data.intent_reference}/capture`)).body.data.status).toBe('succeeded');
      } finally {
        reserve.mockRestore();
      }
    });

    // The recovery step of the scheduler's five-minute hold upkeep, called on the gateway's services with
    // its clock moved on (the job running it: payment-intent-expiry.job.spec.ts in apps/scheduler).
    it('create: a timed-out create nobody retries is given up by the hold-upkeep recovery (recoverInterrupted), its hold released', async () => {
      const { merchant, email } = await customerWithSavedCard(slow);
      slow.sim.setKnobs({ timeoutNext: 1, hangMs: HANG_MS, timeoutMode: 'after_processing' });
      const first = await call(merchant, 'POST', '/payment-intents', { capture_method: 'manual', amount: 1800, email });
      expect(first.status).toBe(504);
      const [unconfirmed] = await intentsOf(merchant);
      expect(unconfirmed.status).toBe('holding');
      expect((await call(merchant, 'GET', `/payment-intents/${unconfirmed.reference}`)).status).toBe(404);
      const intents = slow.gateway.app.get(PaymentIntentsUpkeepService, { strict: false });
      const start = slow.gateway.clock.now();
      try {
        slow.gateway.clock.advance(61 * 60_000);
        expect(await intents.recoverInterrupted()).toBeGreaterThanOrEqual(1);
      } finally {
        slow.gateway.clock.set(start);
      }
      expect(await intentsOf(merchant)).toEqual([{ reference: unconfirmed.reference, status: 'canceled' }]);
      await expectReleasedAtProvider(slow, unconfirmed.reference);
    });
  });
});
