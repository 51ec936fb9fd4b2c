/**
 * Browser tests of the payments, customers and wallet pages against the REAL API (booted in-process
 * on this run's fresh test database) with the provider simulator behind it: payments are taken
 * through the merchant API with a key and the sandbox checkout, as a merchant's server would.
 * Screenshots of each page (1280 px and 390 px wide) go to PORTAL_SCREENSHOT_DIR
 * (default dist/test-artefacts/portal).
 */
import { ApiKeysService } from '@gateway/domain/api-keys';
import { authenticator } from 'otplib';
import { PORTAL_PASSWORD, type PortalAccount } from './support/real-gateway';
import { checkPage } from './support/page-checks';
import { createSecretKey, openPages, type PortalInBrowser, signInTo, startPortalInBrowser } from './support/portal-browser';

describe('portal payments, customers and wallet pages in a browser, against the real API', () => {
  let portal: PortalInBrowser;
  const newPage = openPages(() => portal);

  beforeAll(async () => {
    // A low large-withdrawal threshold, so a live payment's net crosses it.
    portal = await startPortalInBrowser({ providerSimulator: true, env: { LARGE_WITHDRAWAL_THRESHOLD: 'NGN:5000' } });
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });


  const createKey = (account: PortalAccount) => createSecretKey(account, 'Money test');

  /** A payment initialized with the key and paid at the sandbox checkout; returns its reference. */
  async function paidPayment(secret: string, amount: number, email: string): Promise<string> {
    const call = async (path: string, body: unknown) => {
      const response = await fetch(`${portal.gateway.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as { data: { reference: string; status: string } };
      if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
      return json.data;
    };
    const { reference } = await call('/api/v1/payments/initialize', { amount, email });
    const paid = await call(`/api/v1/sandbox/payments/${reference}/complete`, { outcome: 'success' });
    expect(paid.status).toBe('success');
    return reference;
  }

  it('lists a payment, opens it, refunds part of it and shows the refund on the payment and in the wallet', async () => {
    const account = await portal.provision();
    const secret = await createKey(account);
    const email = `buyer-${Date.now()}@example.com`;
    // Two payments of 10,000 (net 9,740 each): the wallet holds 19,480.
    const first = await paidPayment(secret, 10000, email);
    const second = await paidPayment(secret, 10000, email);

    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/payments', account.ownerEmail, 'Payments');
    const table = page.getByRole('table', { name: 'Payments' });
    await table.getByRole('link', { name: first }).waitFor();
    await table.getByRole('link', { name: second }).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(2);
    await table.getByText('₦10,000.00').first().waitFor();
    await checkPage(page, 'payments');

    // Filters: nothing failed; in NGN both.
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'failed' }).click();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No payments match these filters').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await table.getByRole('link', { name: first }).waitFor();

    await table.getByRole('link', { name: first }).click();
    await page.getByRole('heading', { level: 1, name: 'Payment' }).waitFor();
    const summary = page.getByRole('table', { name: 'Payment summary' });
    await summary.getByText('₦9,740.00').waitFor();
    const timeline = page.getByLabel('Payment timeline');
    await timeline.getByText('Initialized').waitFor();
    await timeline.getByText('Paid', { exact: true }).waitFor();

    // A partial refund from the detail: an amount beyond what is left is refused on the field first.
    await page.getByRole('button', { name: 'Refund' }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund payment' });
    await dialog.getByText('Partial', { exact: true }).click();
    await dialog.getByLabel('Amount (NGN)').fill('10000.01');
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await dialog.getByText('At most ₦10,000.00').waitFor();
    await dialog.getByLabel('Amount (NGN)').fill('2500.50');
    await dialog.getByLabel('Reason').fill('Damaged parcel');
    // A double click is one refund: the dialog's idempotency key is sent twice at most.
    await dialog.getByRole('button', { name: 'Refund' }).dblclick();
    await dialog.waitFor({ state: 'detached' });
    await timeline.getByText('Refund of ₦2,500.50').waitFor();
    await summary.getByText('₦2,500.50').waitFor();
    const refunds = await account.owner.get(`/api/portal/payments/${first}/refunds`);
    expect(refunds.status).toBe(200);
    expect(refunds.body.data).toHaveLength(1);
    expect(refunds.body.data[0]).toMatchObject({ amount: 2500.5, reason: 'Damaged parcel', payment_reference: first });
    const refundReference = refunds.body.data[0].reference as string;
    await timeline.getByText(refundReference, { exact: false }).first().waitFor();
    await checkPage(page, 'payment-detail');

    // The wallet: 19,480 − 2,500.50 available, and the refund's debit linked to what caused it.
    await page.getByRole('link', { name: 'Wallet' }).click();
    await page.getByRole('heading', { level: 1, name: 'Wallet' }).waitFor();
    const balances = page.getByRole('table', { name: 'Balances' });
    const ngn = balances.getByRole('row', { name: /^NGN/ });
    await ngn.getByText('₦16,979.50').first().waitFor();
    const ledger = page.getByRole('table', { name: 'Ledger entries' });
    const refundEntry = ledger.getByRole('row').filter({ has: page.getByRole('link', { name: refundReference }) });
    await refundEntry.getByText('−₦2,500.50').waitFor();
    await checkPage(page, 'wallet');

    // Ledger filter by type: only the debit is left.
    await page.getByRole('combobox', { name: 'Entry type' }).click();
    await page.getByRole('option', { name: 'Debit (refund, transfer, split)' }).click();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await ledger.getByRole('link', { name: first }).first().waitFor({ state: 'detached' });
    await ledger.getByRole('link', { name: refundReference }).waitFor();
    expect(await ledger.locator('tbody tr').count()).toBe(1);

    // The refund's entry leads to its payment; a payment's entry to the payment.
    await ledger.getByRole('link', { name: refundReference }).click();
    await page.waitForURL(`**/#/payments/${first}`);
    await page.getByRole('table', { name: 'Payment summary' }).waitFor();

    // A full refund of the other payment (the wallet covers it).
    await page.goto(`${portal.portalUrl}/#/payments/${second}`);
    await page.getByRole('button', { name: 'Refund' }).click();
    const full = page.getByRole('dialog', { name: 'Refund payment' });
    await full.getByText('Full (₦10,000.00)').waitFor();
    await full.getByRole('button', { name: 'Refund' }).click();
    await full.waitFor({ state: 'detached' });
    await page.getByLabel('Payment timeline').getByText('Refund of ₦10,000.00').waitFor();
    // Nothing left to refund: no button.
    await page.getByRole('table', { name: 'Payment summary' }).getByText('₦10,000.00').first().waitFor();
    expect(await page.getByRole('button', { name: 'Refund' }).count()).toBe(0);
  });

  it('shows a customer and their payments', async () => {
    const account = await portal.provision();
    const secret = await createKey(account);
    const email = `ada-${Date.now()}@example.com`;
    const reference = await paidPayment(secret, 1500.5, email);
    await paidPayment(secret, 200, `other-${Date.now()}@example.com`);

    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/customers', account.ownerEmail, 'Customers');
    const table = page.getByRole('table', { name: 'Customers' });
    await table.getByRole('link', { name: email }).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(2);
    await checkPage(page, 'customers');

    await page.getByRole('textbox', { name: 'E-mail' }).fill(email.toUpperCase());
    await page.getByRole('button', { name: 'Search' }).click();
    // The search's answer, not the table emptied while it loads: the other row gone AND this one shown.
    await table.getByRole('link', { name: /^other-/ }).waitFor({ state: 'detached' });
    await table.getByRole('link', { name: email }).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(1);
    await page.getByRole('textbox', { name: 'E-mail' }).fill('nobody@example.com');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No customer with the e-mail nobody@example.com').waitFor();
    await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await page.getByRole('button', { name: 'Search' }).click();

    await table.getByRole('link', { name: email }).click();
    await page.getByRole('heading', { level: 1, name: 'Customer' }).waitFor();
    const payments = page.getByRole('table', { name: `Payments of ${email}` });
    await payments.getByRole('link', { name: reference }).waitFor();
    await payments.getByText('₦1,500.50').waitFor();
    expect(await payments.locator('tbody tr').count()).toBe(1);
    await checkPage(page, 'customer-detail');
  });

  it('shows a viewer no refund button (and the API refuses the viewer), and another account’s payment as not found', async () => {
    const account = await portal.provision();
    const viewer = await account.addMember('viewer');
    const secret = await createKey(account);
    const reference = await paidPayment(secret, 5000, `buyer-${Date.now()}@example.com`);

    const viewerPage = await newPage();
    await signInTo(viewerPage, portal.portalUrl, `#/payments/${reference}`, viewer.email, 'Payment');
    await viewerPage.getByLabel('Payment timeline').getByText('Paid', { exact: true }).waitFor();
    expect(await viewerPage.getByRole('button', { name: 'Refund' }).count()).toBe(0);
    const refused = await viewer.client.post(`/api/portal/payments/${reference}/refunds`, { body: { amount: 1 } });
    expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_role']);
    const untouched = await account.owner.get(`/api/portal/payments/${reference}`);
    expect(untouched.body.data.amount_refunded).toBe(0);

    const other = await portal.provision();
    const otherPage = await newPage();
    await signInTo(otherPage, portal.portalUrl, `#/payments/${reference}`, other.ownerEmail, 'Payment not found');
    await otherPage.getByText(`There is no test payment ${reference} in this account.`).waitFor();
    const missing = await other.owner.get(`/api/portal/payments/${reference}`);
    expect([missing.status, missing.body.code]).toEqual([404, 'payment_not_found']);
    const notRefunded = await other.owner.post(`/api/portal/payments/${reference}/refunds`, { body: {} });
    expect([notRefunded.status, notRefunded.body.code]).toEqual([404, 'payment_not_found']);
    await checkPage(otherPage, 'payment-not-found');
  });

  it('in live mode: withdraws from a funded live wallet, with the TOTP code above the threshold, and lists the withdrawals', async () => {
    const account = await portal.provision({ identityVerified: true });
    const totpSecret: string = (await account.owner.post('/api/portal/me/totp/enroll')).body.data.secret;
    // Each code is for one 30-second step of the gateway's clock, and a step's code works once.
    const code = () => {
      portal.gateway.clock.advance(30_000);
      return authenticator.clone({ epoch: portal.gateway.clock.now().getTime() }).generate(totpSecret);
    };
    expect((await account.owner.post('/api/portal/me/totp/confirm', { body: { code: code() } })).status).toBe(200);
    expect((await account.owner.put('/api/portal/me/mode', { body: { mode: 'live' }, totp: code() })).status).toBe(200);
    const bank = await account.owner.put('/api/portal/settlements/account', { body: { bank_code: '058', account_number: `30${String(Date.now()).slice(-8)}` }, totp: code() });
    expect(bank.status).toBe(200);

    // A live payment of 10,000 paid at the provider (net 9,740 in the live wallet).
    const simulator = portal.simulator;
    if (!simulator) throw new Error('the provider simulator is not running');
    const { secret: liveKey } = await portal.gateway.app.get(ApiKeysService, { strict: false }).issue({ developerId: account.developerId, mode: 'live', kind: 'secret' });
    const call = async (base: string, path: string, token: string, body: unknown) => {
      const response = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return (await response.json()) as { data: { reference: string; status: string } };
    };
    const init = await call(portal.gateway.baseUrl, '/api/v1/payments/initialize', liveKey, { amount: 10_000, email: `buyer-${Date.now()}@example.com` });
    await call(simulator.url, `/sim/transactions/${init.data.reference}/complete`, simulator.liveSecretKey, {});
    expect((await call(portal.gateway.baseUrl, '/api/v1/payments/verify', liveKey, { reference: init.data.reference })).data.status).toBe('success');

    const page = await newPage();
    await page.goto(`${portal.portalUrl}/#/withdrawals`);
    await page.getByLabel('E-mail').fill(account.ownerEmail);
    await page.getByRole('textbox', { name: /^Password/ }).fill(PORTAL_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Authentication code').fill(code());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Withdrawals are live-mode only').waitFor();
    // Live mode for this browser's session (the mode belongs to the session), then the page again.
    const switched = await page.evaluate(async (totp) => {
      const csrf = ((await (await fetch('/api/portal/auth/csrf', { credentials: 'include' })).json()) as { data: { csrf_token: string } }).data.csrf_token;
      const headers = { 'content-type': 'application/json', 'X-CSRF-Token': csrf, 'X-TOTP-Code': totp };
      return (await fetch('/api/portal/me/mode', { method: 'PUT', credentials: 'include', headers, body: JSON.stringify({ mode: 'live' }) })).status;
    }, code());
    expect(switched).toBe(200);
    await page.reload();
    await page.getByText('No withdrawals yet').waitFor();
    await page.getByTestId('settlement-account').waitFor();

    const withdraw = page.getByRole('form', { name: 'Request a withdrawal' });
    await withdraw.getByText('Available: ₦9,740.00').waitFor();
    // Below the threshold: no code asked.
    await withdraw.getByLabel(/Amount/).fill('1000.50');
    await withdraw.getByRole('button', { name: 'Request the withdrawal' }).click();
    await withdraw.getByText(/₦1,000\.50 is reserved and waits for approval/).waitFor();
    const table = page.getByRole('table', { name: 'Withdrawals' });
    await table.getByRole('row').filter({ hasText: '₦1,000.50' }).getByText('pending approval').waitFor();

    // Above it (5,000): the API asks for the code, the field appears, the same request goes again with it.
    await withdraw.getByLabel(/Amount/).fill('6000');
    await withdraw.getByRole('button', { name: 'Request the withdrawal' }).click();
    await withdraw.getByLabel('Authentication code').fill(code());
    await withdraw.getByRole('button', { name: 'Request the withdrawal' }).click();
    await withdraw.getByText(/₦6,000\.00 is reserved and waits for approval/).waitFor();
    await table.getByRole('row').filter({ hasText: '₦6,000.00' }).getByText('pending approval').waitFor();
    expect(await table.locator('tbody tr').count()).toBe(2);
    // 9,740 − 1,000.50 − 6,000 left to withdraw, the rest reserved.
    await withdraw.getByText('Available: ₦2,739.50').waitFor();
    const listed = (await account.owner.get('/api/portal/settlements')).body.data as Array<{ amount: number; status: string; origin: string }>;
    expect(listed.map((s) => [s.amount, s.status, s.origin])).toEqual([
      [6000, 'pending_approval', 'manual'],
      [1000.5, 'pending_approval', 'manual'],
    ]);
    await checkPage(page, 'withdrawals-live-funded');
  }, 180_000);
});
