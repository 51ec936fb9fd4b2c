import { TEST_CARDS } from '../test-cards';
import { initialize, payOnCheckout, startHarness, type Harness } from '../../test/harness';

describe('hosted checkout over HTTP', () => {
  let harness: Harness;

  beforeEach(async () => {
    harness = await startHarness();
  });

  afterEach(async () => {
    await harness.close();
  });

  it('serves an accessible, self-contained page with the amount, the email and one labelled radio per test card', async () => {
    const { authorizationUrl, accessCode } = await initialize(harness.api, { amount: 250_000, email: 'ada@example.com' });
    const response = await fetch(authorizationUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('₦2,500.00');
    expect(html).toContain('ada@example.com');
    expect(html).toContain(`action="/checkout/${accessCode}/pay"`);
    expect(html).toContain('id="pay-button"');
    for (const card of TEST_CARDS) {
      expect(html).toContain(`<input type="radio" name="card" id="card-${card.number}" value="${card.number}"`);
      expect(html).toContain(`<label for="card-${card.number}">`);
    }
    // No external assets: nothing is loaded from anywhere.
    expect(html).not.toMatch(/<(script|link|img)\b/);
  });

  it('marks the transaction "ongoing" once the customer opens the checkout', async () => {
    const { reference, authorizationUrl } = await initialize(harness.api);
    await (await fetch(authorizationUrl)).text();
    expect((await harness.api.get(`/transaction/verify/${reference}`)).data.status).toBe('ongoing');
  });

  it('escapes merchant-controlled values in the page', async () => {
    const { authorizationUrl } = await initialize(harness.api, { email: 'o\'<b>"x@example.com' });
    const html = await (await fetch(authorizationUrl)).text();
    expect(html).not.toContain('<b>"x');
    expect(html).toContain('o&#39;&lt;b&gt;&quot;x@example.com');
  });

  it.each([
    ['4084084084084081', 'success', 'Approved', true],
    ['5060990580000212', 'success', 'Approved', false],
    ['5399838383838381', 'success', 'Approved', true],
    ['4000000000000002', 'failed', 'Declined', undefined],
    ['4000000000009995', 'failed', 'Insufficient Funds', undefined],
  ])('paying with %s → %s (%s)', async (cardNumber, status, gatewayResponse, reusable) => {
    const { reference, accessCode } = await initialize(harness.api, {
      amount: 10_000_00,
      callback_url: 'https://merchant.test/return?order=42',
    });
    const paid = await payOnCheckout(harness.baseUrl, accessCode, cardNumber);
    expect(paid.status).toBe(303);
    const location = new URL(paid.headers.get('location') ?? '');
    expect(location.origin + location.pathname).toBe('https://merchant.test/return');
    expect(location.searchParams.get('order')).toBe('42');
    expect(location.searchParams.get('reference')).toBe(reference);
    expect(location.searchParams.get('trxref')).toBe(reference);

    const verified = await harness.api.get(`/transaction/verify/${reference}`);
    expect(verified.data).toMatchObject({ status, gateway_response: gatewayResponse });
    if (status === 'success') {
      expect(verified.data.fees).toBe(250_00);
      expect(verified.data.paid_at).toEqual(expect.any(String));
      expect(verified.data.authorization).toMatchObject({
        authorization_code: expect.stringMatching(/^AUTH_/),
        bin: cardNumber.slice(0, 6),
        last4: cardNumber.slice(-4),
        exp_month: '12',
        exp_year: '2030',
        reusable,
        signature: expect.stringMatching(/^SIG_/),
      });
    } else {
      expect(verified.data.fees).toBeNull();
      expect(verified.data.authorization).toEqual({});
    }

    await harness.sim.idle();
    expect(harness.receiver.events('charge.success').filter((e) => e.data['reference'] === reference)).toHaveLength(
      status === 'success' ? 1 : 0,
    );
  });

  it('never charges twice: paying a paid transaction again only redirects again', async () => {
    const { reference, accessCode } = await initialize(harness.api, { callback_url: 'https://merchant.test/return' });
    await payOnCheckout(harness.baseUrl, accessCode, '4084084084084081');
    const first = await harness.api.get(`/transaction/verify/${reference}`);
    const again = await payOnCheckout(harness.baseUrl, accessCode, '4000000000000002');
    expect(again.status).toBe(303);
    const after = await harness.api.get(`/transaction/verify/${reference}`);
    expect(after.data.status).toBe('success');
    expect(after.data.authorization.authorization_code).toBe(first.data.authorization.authorization_code);
    await harness.sim.idle();
    expect(harness.receiver.events('charge.success')).toHaveLength(1);
  });

  it('lets the customer retry with another card after a decline', async () => {
    const { reference, accessCode, authorizationUrl } = await initialize(harness.api);
    const declined = await payOnCheckout(harness.baseUrl, accessCode, '4000000000000002');
    expect(declined.status).toBe(200);
    const resultPage = await declined.text();
    expect(resultPage).toContain('Payment failed: Declined');
    expect(resultPage).toContain(`href="/checkout/${accessCode}"`);

    const retryPage = await (await fetch(authorizationUrl)).text();
    expect(retryPage).toContain('Your last attempt failed: Declined');

    const paid = await payOnCheckout(harness.baseUrl, accessCode, '4084084084084081');
    expect(await paid.text()).toContain('Payment successful');
    expect((await harness.api.get(`/transaction/verify/${reference}`)).data.status).toBe('success');
  });

  it('shows a result page instead of the form once paid', async () => {
    const { accessCode, authorizationUrl } = await initialize(harness.api);
    await payOnCheckout(harness.baseUrl, accessCode, '4084084084084081');
    const html = await (await fetch(authorizationUrl)).text();
    expect(html).toContain('data-status="success"');
    expect(html).not.toContain('id="pay-button"');
  });

  it('re-renders the form with 400 when no or an unknown card is submitted', async () => {
    const { reference, accessCode } = await initialize(harness.api);
    const response = await payOnCheckout(harness.baseUrl, accessCode, '4111111111111111');
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Choose one of the test cards below.');
    expect((await harness.api.get(`/transaction/verify/${reference}`)).data.status).toBe('abandoned');
  });

  it('answers 404 with an HTML page for an unknown access code', async () => {
    const page = await fetch(`${harness.baseUrl}/checkout/doesnotexist`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('This checkout link is invalid or has expired.');
    expect((await payOnCheckout(harness.baseUrl, 'doesnotexist', '4084084084084081')).status).toBe(404);
  });

  it('completes a checkout without a browser through /sim/transactions/:reference/complete', async () => {
    const { reference } = await initialize(harness.api);
    const declined = await harness.api.post(`/sim/transactions/${reference}/complete`, { outcome: 'insufficient_funds' });
    expect(declined.data).toMatchObject({ status: 'failed', gateway_response: 'Insufficient Funds' });
    const paid = await harness.api.post(`/sim/transactions/${reference}/complete`, { card: '5060990580000212' });
    expect(paid.data).toMatchObject({ status: 'success', authorization: { last4: '0212', reusable: false } });
    const unknown = await harness.api.post(`/sim/transactions/${reference}/complete`, { card: '1234' });
    expect(unknown.httpStatus).toBe(400);
    expect((await harness.live.post(`/sim/transactions/${reference}/complete`, {})).httpStatus).toBe(404);
  });
});
