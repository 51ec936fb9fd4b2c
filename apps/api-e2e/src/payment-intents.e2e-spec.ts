import { assertLedgerInvariants } from '@gateway/domain/ledger/testing';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, customerWithSavedCard, eventsFor, startPaymentsHarness, type PaymentsHarness } from './support/payments';

describe('payment intents: hold, capture, cancel, expiry', () => {
  let h: PaymentsHarness;
  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown) => http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body });
  const available = async (m: TestMerchant) => (await api(m, 'GET', '/wallet/balance')).body.data.available_balance as number;
  const events = (name: string, reference: string) => eventsFor(h, name, reference);

  const hold = (m: TestMerchant, body: Record<string, unknown>) => api(m, 'POST', '/payment-intents', { capture_method: 'manual', ...body });

  beforeAll(async () => {
    h = await startPaymentsHarness();
  });
  afterAll(async () => {
    await h?.close();
    await assertLedgerInvariants(process.env.TEST_DATABASE_URL as string);
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
    } finally {
      h.gateway.clock.set(start);
    }
  });

  it('refuses without a saved card, with another tenant’s card, and when the issuer declines the hold', async () => {
    const merchant = await createMerchant(h.gateway);
    const none = await hold(merchant, { amount: 1000, email: buyer() });
    expect([none.status, none.body.code, Object.keys(none.body.errors)]).toEqual([400, 'validation_error', ['authorization_code']]);

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

  it("answers another merchant's intent like a missing one", async () => {
    const { merchant, email } = await customerWithSavedCard(h);
    const ref = (await hold(merchant, { amount: 1000, email })).body.data.intent_reference;
    const other = await createMerchant(h.gateway);
    for (const [method, path] of [['GET', `/payment-intents/${ref}`], ['POST', `/payment-intents/${ref}/capture`], ['POST', `/payment-intents/${ref}/cancel`]]) {
      const res = await api(other, method, path);
      expect([path, res.status, res.body.code]).toEqual([path, 404, 'payment_intent_not_found']);
    }
  });
});
