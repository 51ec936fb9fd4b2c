import { CARD_FOR_OUTCOME } from '@gateway/provider-sim';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, eventsFor, initializePayment, startPaymentsHarness, type PaymentsHarness } from './support/payments';

/**
 * A declined card does not end a hosted-checkout payment: the customer may try another card on
 * the same checkout (as on Paystack's page, with the same access code), so the merchant's
 * `authorization_url` keeps working until the payment succeeds or is abandoned.
 */
describe('checkout link after a declined card', () => {
  let h: PaymentsHarness;

  beforeAll(async () => {
    h = await startPaymentsHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const api = (m: TestMerchant, method: string, path: string, body?: unknown) => http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body });
  /** The gateway's checkout link as the customer's browser opens it: the provider page it redirects to. */
  const openLink = (authorizationUrl: string) => fetch(authorizationUrl.replace(/^https?:\/\/[^/]+/, h.gateway.baseUrl), { redirect: 'manual' });
  /** Submits the provider's checkout form with a test card, as the customer does. */
  const payOnCheckout = (checkoutPage: string, card: string) =>
    fetch(`${checkoutPage}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ card }), redirect: 'manual' });

  it('keeps the link open after a decline; paying on the same link succeeds and is credited once', async () => {
    const merchant = await createMerchant(h.gateway);
    const init = await initializePayment(h.gateway, merchant, { amount: 5000, email: buyer() });
    const { reference, authorization_url: link } = init.body.data;

    const first = await openLink(link);
    expect(first.status).toBe(302);
    const checkoutPage = first.headers.get('location') as string;
    expect((await payOnCheckout(checkoutPage, CARD_FOR_OUTCOME.declined.number)).status).toBe(200);

    const declined = await api(merchant, 'POST', '/payments/verify', { reference });
    expect(declined.body.data).toMatchObject({ status: 'failed', gateway_response: 'Declined', authorization_url: link });
    expect((await api(merchant, 'GET', `/payments/${reference}`)).body.data.authorization_url).toBe(link);

    // The customer comes back through the merchant's link and pays with another card.
    const again = await openLink(link);
    expect([again.status, again.headers.get('location')]).toEqual([302, checkoutPage]);
    expect((await payOnCheckout(checkoutPage, CARD_FOR_OUTCOME.success.number)).status).toBe(200);

    const paid = await api(merchant, 'POST', '/payments/verify', { reference });
    expect(paid.body.data).toMatchObject({ status: 'success', net_amount: 4815, authorization_url: null });
    await h.sim.idle(); // the provider's charge.success callback as well: still one credit
    const ledger = (await api(merchant, 'GET', '/wallet/ledger')).body.data as { type: string; amount: number; reference: string }[];
    expect(ledger.filter((e) => e.reference === reference).map((e) => [e.type, e.amount])).toEqual(
      expect.arrayContaining([
        ['credit', 5000],
        ['fee', 10],
        ['fee', 175],
      ]),
    );
    expect(ledger.filter((e) => e.reference === reference)).toHaveLength(3);
    expect((await api(merchant, 'GET', '/wallet/balance?currency=NGN')).body.data.available_balance).toBe(4815);
    expect(await eventsFor(h, 'payment.success', reference)).toBe(1);

    // Paid: the link is closed.
    expect((await openLink(link)).status).toBe(404);
  });

  it('closes the link of a declined payment once it is abandoned', async () => {
    const merchant = await createMerchant(h.gateway);
    const init = await initializePayment(h.gateway, merchant, { amount: 1000, email: buyer() });
    const { reference, authorization_url: link } = init.body.data;
    const checkoutPage = (await openLink(link)).headers.get('location') as string;
    await payOnCheckout(checkoutPage, CARD_FOR_OUTCOME.declined.number);
    expect((await api(merchant, 'POST', '/payments/verify', { reference })).body.data.status).toBe('failed');

    const asOf = new Date(Date.now() + 25 * 3_600_000).toISOString();
    const scan = await api(merchant, 'POST', '/sandbox/scans/abandoned-payments/run', { as_of: asOf });
    expect(scan.body.data).toEqual({ scan: 'abandoned-payments', affected: 1 });
    expect((await api(merchant, 'GET', `/payments/${reference}`)).body.data).toMatchObject({ status: 'abandoned', authorization_url: null });
    expect((await openLink(link)).status).toBe(404);
  });
});
