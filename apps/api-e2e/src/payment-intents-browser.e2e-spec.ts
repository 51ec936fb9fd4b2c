/**
 * A hold for a customer with no saved card, as the customer meets it: Debian's Chromium (never a
 * downloaded browser) opens the intent's authorization_url, is sent on to the provider's
 * authorize-only page, picks a test card and authorizes; the merchant then sees the intent
 * `requires_capture`, captures part of it and the rest is released. Needs Chromium, as
 * checkout-browser.e2e-spec.ts (CHROMIUM_PATH, by default /usr/bin/chromium).
 */
import type { Browser } from 'playwright-core';
import { launchChromium } from './support/chromium';
import { http } from './support/http';
import { createMerchant } from './support/merchants';
import { buyer, startPaymentsHarness, type PaymentsHarness } from './support/payments';

describe('payment intent for a new customer, authorized in a real browser', () => {
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

  it('the customer authorizes with the success test card; the merchant sees requires_capture and captures', async () => {
    const merchant = await createMerchant(h.gateway);
    const api = (method: string, path: string, body?: unknown) => http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: merchant.key, body });
    const intent = (await api('POST', '/payment-intents', { capture_method: 'manual', amount: 3000, email: buyer() })).body.data;
    expect(intent.status).toBe('requires_action');
    // authorization_url is on PUBLIC_BASE_URL; this test gateway listens on its own loopback port.
    const url = `${h.gateway.baseUrl}${new URL(intent.authorization_url).pathname}`;

    const page = await browser.newPage();
    await page.goto(url);
    expect(page.url().startsWith(h.sim.url() as string)).toBe(true);
    expect(await page.textContent('#pay-button')).toContain('Authorize');
    await page.check('#card-4084084084084081');
    await Promise.all([page.waitForSelector('#payment-result'), page.click('#pay-button')]);
    expect(await page.getAttribute('#payment-result', 'data-status')).toBe('authorized');
    await page.close();

    expect((await api('GET', `/payment-intents/${intent.intent_reference}`)).body.data.status).toBe('requires_capture');
    const captured = await api('POST', `/payment-intents/${intent.intent_reference}/capture`, { amount: 2000 });
    expect(captured.body.data).toMatchObject({ status: 'succeeded', captured_amount: 2000 });
  });
});
