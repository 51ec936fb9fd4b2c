/**
 * The hosted checkout as a customer meets it: Debian's Chromium (never a downloaded browser) opens
 * the gateway's authorization_url, is sent on to the provider's page, picks a test card and pays;
 * the merchant then verifies. Needs Chromium: CHROMIUM_PATH names it, by default Debian's
 * /usr/bin/chromium (`apt-get install -y chromium`); see the README.
 */
import type { Browser } from 'playwright-core';
import { launchChromium } from './support/chromium';
import { http } from './support/http';
import { createMerchant } from './support/merchants';
import { buyer, initializePayment, startPaymentsHarness, type PaymentsHarness } from './support/payments';

describe('hosted checkout in a real browser', () => {
  let h: PaymentsHarness;
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
    h = await startPaymentsHarness();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('a customer pays with the success test card and the merchant verifies the payment', async () => {
    const merchant = await createMerchant(h.gateway);
    const init = await initializePayment(h.gateway, merchant, { amount: 2500, email: buyer() });
    const reference: string = init.body.data.reference;
    // authorization_url is on PUBLIC_BASE_URL; this test gateway listens on its own loopback port.
    const checkoutUrl = `${h.gateway.baseUrl}${new URL(init.body.data.authorization_url).pathname}`;

    const page = await browser.newPage();
    await page.goto(checkoutUrl);
    expect(page.url().startsWith(h.sim.url() as string)).toBe(true);
    expect(await page.textContent('body')).toContain(reference);
    await page.check('#card-4084084084084081');
    await Promise.all([page.waitForSelector('#payment-result'), page.click('#pay-button')]);
    expect(await page.getAttribute('#payment-result', 'data-status')).toBe('success');
    await page.close();

    const verified = await http(h.gateway.baseUrl, 'POST', '/api/v1/payments/verify', { token: merchant.key, body: { reference } });
    // 2,500 − 10 − (37.50 + 100)
    expect(verified.body.data).toMatchObject({ status: 'success', amount: 2500, net_amount: 2352.5 });
  });
});
