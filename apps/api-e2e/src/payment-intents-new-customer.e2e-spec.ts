import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, eventsFor, startPaymentsHarness, type PaymentsHarness } from './support/payments';

/**
 * Holds for a customer with no saved card: `requires_action` with an `authorization_url` (the
 * simulator's authorize-only checkout) until the customer authorizes, then a hold like any other.
 */
describe('payment intents for a new customer: requires_action → authorized on the hosted page → capture', () => {
  let h: PaymentsHarness;
  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown) => http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body });
  const available = async (m: TestMerchant) => (await api(m, 'GET', '/wallet/balance')).body.data.available_balance as number;
  const hold = (m: TestMerchant, body: Record<string, unknown>) => api(m, 'POST', '/payment-intents', { capture_method: 'manual', ...body });
  const sim = (method: string, path: string, body?: unknown) => http(h.sim.url() as string, method, path, { token: h.secrets.test, body });

  /** Follows the gateway's authorization_url to the provider's page, as a browser would; answers the page's URL. */
  async function providerPage(authorizationUrl: string): Promise<string> {
    const response = await fetch(`${h.gateway.baseUrl}${new URL(authorizationUrl).pathname}`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    return response.headers.get('location') as string;
  }
  /** The customer picks a test card on the provider's page and submits it (the page's own form post). */
  async function authorizeOnPage(authorizationUrl: string, card = '4084084084084081'): Promise<void> {
    const page = await providerPage(authorizationUrl);
    const answer = await fetch(`${page}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ card }).toString() });
    expect(await answer.text()).toContain('data-status="authorized"');
  }

  beforeAll(async () => {
    h = await startPaymentsHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('creates requires_action with an authorization_url; capture before authorization is 409 naming requires_action', async () => {
    const merchant = await createMerchant(h.gateway);
    const created = await hold(merchant, { amount: 4000, email: buyer() });
    expect(created.status).toBe(201);
    const intent = created.body.data;
    expect(intent).toMatchObject({ status: 'requires_action', authorization_url: expect.stringMatching(/\/checkout\/holds\/PI-[0-9a-f]+$/), payment_reference: null, captured_amount: null });
    // The link lapses after the hours payments are abandoned after (24 by default).
    expect(new Date(intent.expires_at).getTime()).toBe(h.gateway.clock.now().getTime() + 24 * 3_600_000);
    expect(await providerPage(intent.authorization_url)).toMatch(new RegExp(`^${h.sim.url()}/checkout/`));
    expect((await sim('GET', `/preauthorization/${intent.intent_reference}`)).body.data.status).toBe('pending');

    const early = await api(merchant, 'POST', `/payment-intents/${intent.intent_reference}/capture`);
    expect([early.status, early.body.code]).toEqual([409, 'invalid_state']);
    expect(early.body.message).toContain('requires_action');
    expect((await api(merchant, 'GET', `/payment-intents/${intent.intent_reference}`)).body.data.status).toBe('requires_action');
  });

  it('cancel from requires_action: canceled, the link closed at the gateway and at the provider', async () => {
    const merchant = await createMerchant(h.gateway);
    const intent = (await hold(merchant, { amount: 1500, email: buyer() })).body.data;
    const canceled = await api(merchant, 'POST', `/payment-intents/${intent.intent_reference}/cancel`);
    expect([canceled.status, canceled.body.data.status, canceled.body.data.authorization_url]).toEqual([200, 'canceled', null]);
    expect((await fetch(`${h.gateway.baseUrl}${new URL(intent.authorization_url).pathname}`, { redirect: 'manual' })).status).toBe(404);
    expect((await sim('GET', `/preauthorization/${intent.intent_reference}`)).body.data.status).toBe('released');
    const again = await api(merchant, 'POST', `/payment-intents/${intent.intent_reference}/cancel`);
    expect([again.status, again.body.code]).toEqual([409, 'invalid_state']);
  });

  it('authorized on the provider page → requires_capture (7 days from then) → captured into a credited payment; the card is saved', async () => {
    const merchant = await createMerchant(h.gateway);
    const email = buyer();
    const before = await available(merchant);
    const intent = (await hold(merchant, { amount: 10000, email })).body.data;
    const ref = intent.intent_reference;
    await authorizeOnPage(intent.authorization_url);

    const authorized = (await api(merchant, 'GET', `/payment-intents/${ref}`)).body.data;
    expect(authorized).toMatchObject({ status: 'requires_capture', authorization_url: null });
    expect(new Date(authorized.expires_at).getTime()).toBe(h.gateway.clock.now().getTime() + 7 * 86_400_000);
    expect(await available(merchant)).toBe(before); // a hold, not a payment

    const captured = await api(merchant, 'POST', `/payment-intents/${ref}/capture`, { amount: 7500.5 });
    expect(captured.body.data).toMatchObject({ status: 'succeeded', amount: 10000, captured_amount: 7500.5, payment_reference: ref });
    // 7,500.50 − 10.00 platform fee − (1.5 % of 7,500.50 = 112.51 (112.5075) + 100.00) provider fee
    expect((await api(merchant, 'GET', `/payments/${ref}`)).body.data).toMatchObject({ status: 'success', amount: 7500.5, net_amount: 7277.99 });
    expect(await available(merchant)).toBe(before + 7277.99);
    expect(await eventsFor(h, 'payment.success', ref)).toBe(1);

    // The card authorized on the page is now the customer's saved card: the next hold is placed on it at once.
    const next = await hold(merchant, { amount: 200, email });
    expect(next.body.data).toMatchObject({ status: 'requires_capture', authorization_url: null });
  });

  it('a link never used lapses after 24 hours: expired, refused at capture, closed at the provider', async () => {
    const merchant = await createMerchant(h.gateway);
    const intent = (await hold(merchant, { amount: 700, email: buyer() })).body.data;
    const start = h.gateway.clock.now();
    try {
      h.gateway.clock.advance(24 * 3_600_000 + 60_000);
      const late = await api(merchant, 'POST', `/payment-intents/${intent.intent_reference}/capture`);
      expect([late.status, late.body.code]).toEqual([409, 'invalid_state']);
      expect(late.body.message).toContain('expired');
      await api(merchant, 'POST', '/sandbox/scans/payment-intent-expiry/run', {});
      expect((await api(merchant, 'GET', `/payment-intents/${intent.intent_reference}`)).body.data.status).toBe('expired');
      expect((await sim('GET', `/preauthorization/${intent.intent_reference}`)).body.data.status).toBe('released');
    } finally {
      h.gateway.clock.set(start);
    }
  });
});
