/**
 * Browser tests of the dashboard, the e-mailed links' pages (accepting an invitation, resetting a
 * password) and the withdrawals page against the REAL API (booted in-process on this run's fresh
 * test database) with the provider simulator behind it. Payments are taken through the merchant
 * API with a key and the sandbox checkout; e-mails are read from the API's development mailbox,
 * and their links followed as a person would. Screenshots (1280 px and 390 px wide) go to
 * PORTAL_SCREENSHOT_DIR (default dist/test-artefacts/portal).
 */
import { authenticator } from 'otplib';
import { PORTAL_PASSWORD, type PortalAccount } from './support/real-gateway';
import { checkPage } from './support/page-checks';
import { createSecretKey, openPages, type PortalInBrowser, signInTo, startPortalInBrowser } from './support/portal-browser';

/** How the portal formats an amount in Chromium's en-US locale (shared/format/money.ts). */
const money = (amount: string, currency = 'NGN') => new Intl.NumberFormat('en-US', { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }).format(amount as `${number}`);

describe('portal dashboard, invitation and password-reset links, withdrawals in a browser, against the real API', () => {
  let portal: PortalInBrowser;
  const newPage = openPages(() => portal, { locale: 'en-US' });

  beforeAll(async () => {
    portal = await startPortalInBrowser({ providerSimulator: true });
  }, 120_000);

  afterAll(async () => {
    await portal?.close();
  });

  const createKey = (account: PortalAccount) => createSecretKey(account, 'Dashboard test');

  /** A payment initialized with the key and completed at the sandbox checkout with `outcome`; returns its reference. */
  async function payment(secret: string, amount: number, outcome: 'success' | 'declined' = 'success'): Promise<string> {
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
    const { reference } = await call('/api/v1/payments/initialize', { amount, email: `buyer-${Date.now()}@example.com` });
    await call(`/api/v1/sandbox/payments/${reference}/complete`, { outcome });
    return reference;
  }

  /** The portal link in the newest development-mailbox e-mail to `email`, as a path on this test's portal. */
  async function mailedLink(email: string): Promise<string> {
    const response = await fetch(`${portal.gateway.baseUrl}/api/portal/dev/mailbox?to=${encodeURIComponent(email)}`);
    const body = (await response.json()) as { data: Array<{ body: string }> };
    const link = /https?:\/\/\S+?(\/#\/\S+)/.exec(body.data[0]?.body ?? '')?.[1];
    if (!link) throw new Error(`no portal link mailed to ${email}: ${JSON.stringify(body)}`);
    return `${portal.portalUrl}${link}`;
  }

  it('lands on the dashboard after sign-in: balances, today’s volume, success rate, the chart, recent payments linked to their pages', async () => {
    const account = await portal.provision();
    const secret = await createKey(account);
    const first = await payment(secret, 1500.5);
    const second = await payment(secret, 2500.25);
    const declined = await payment(secret, 700, 'declined');

    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/sign-in', account.ownerEmail, 'Dashboard');
    expect(page.url()).toMatch(/#\/dashboard$/);

    const today = page.getByTestId('today');
    // 1,500.50 + 2,500.25, summed by the API in exact decimals.
    await today.getByText(money('4000.75')).waitFor();
    await today.getByText('2 payments').waitFor();
    // 2 successes out of 3 outcomes.
    expect(await today.getByText(/Success rate/).textContent()).toContain('66.67%');
    await page.getByTestId('this-month').getByText(money('4000.75')).waitFor();

    // The balances are the wallet's (net of fees), per currency.
    const wallet = (await account.owner.get('/api/portal/wallet/balance')).body.data as Array<{ currency: string; available_balance: number; total_balance: number }>;
    const ngn = wallet.find((b) => b.currency === 'NGN');
    expect(ngn?.total_balance).toBeGreaterThan(0);
    const balanceRow = page.getByRole('table', { name: 'Balances' }).getByRole('row', { name: /NGN/ });
    expect(await balanceRow.textContent()).toContain(money(String(ngn?.available_balance)));

    // The chart: recharts drew today's bar.
    const chart = page.getByTestId('volume-chart');
    await chart.locator('svg.recharts-surface').first().waitFor();
    expect(await chart.locator('.recharts-bar-rectangle path, .recharts-bar-rectangle rect').count()).toBeGreaterThan(0);

    const recent = page.getByRole('table', { name: 'Recent payments' });
    for (const reference of [first, second, declined]) await recent.getByRole('link', { name: reference }).waitFor();
    await checkPage(page, 'dashboard');

    await recent.getByRole('link', { name: first }).click();
    await page.getByRole('heading', { level: 1, name: /Payment/ }).waitFor();
    expect(page.url()).toContain(`#/payments/${first}`);
  });

  it('shows an empty dashboard to an account without payments', async () => {
    const account = await portal.provision();
    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/dashboard', account.ownerEmail, 'Dashboard');
    await page.getByText('No test payments yet').waitFor();
    await page.getByText('No successful payments in the last 30 days.').waitFor();
    expect(await page.getByTestId('today').textContent()).toContain('No successful payments');
  });

  it('accepts an invitation from the e-mailed link and lands signed in; a used link shows the API’s error', async () => {
    const account = await portal.provision();
    const email = `invitee-${Date.now()}@example.com`;
    expect((await account.owner.post('/api/portal/team/invitations', { body: { email, role: 'developer' } })).status).toBe(201);
    const link = await mailedLink(email);
    expect(link).toContain('/#/invitations/accept?token=');

    const page = await newPage();
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'Accept the invitation' }).waitFor();
    await checkPage(page, 'accept-invitation');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Your name').fill('Grace Hopper');
    await page.getByRole('textbox', { name: /^Password/ }).fill('short');
    await page.getByRole('textbox', { name: /^Repeat the password/ }).fill('short');
    await page.getByRole('button', { name: 'Accept and sign in' }).click();
    await page.getByText('At least 12 characters', { exact: true }).waitFor();
    await page.getByRole('textbox', { name: /^Password/ }).fill('a long enough passphrase');
    await page.getByRole('textbox', { name: /^Repeat the password/ }).fill('a long enough passphrase');
    await page.getByRole('button', { name: 'Accept and sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const me = await page.evaluate(async () => (await (await fetch('/api/portal/me', { credentials: 'include' })).json()) as { data: { email: string; name: string; account: { role: string } } });
    expect([me.data.email, me.data.name, me.data.account.role]).toEqual([email, 'Grace Hopper', 'developer']);

    // The link works once.
    const again = await newPage();
    await again.goto(link);
    await again.getByLabel('E-mail').fill(email);
    await again.getByLabel('Your name').fill('Someone Else');
    await again.getByRole('textbox', { name: /^Password/ }).fill('another long passphrase');
    await again.getByRole('textbox', { name: /^Repeat the password/ }).fill('another long passphrase');
    await again.getByRole('button', { name: 'Accept and sign in' }).click();
    const error = again.getByRole('alert').filter({ hasText: 'The invitation could not be accepted' });
    await error.waitFor();
    expect(await error.textContent()).toContain('invalid_token');
  });

  it('resets a password through the e-mailed link and signs in with the new one', async () => {
    const account = await portal.provision();
    const member = await account.addMember('developer');
    const page = await newPage();
    await page.goto(`${portal.portalUrl}/#/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
    await page.getByLabel('E-mail').fill(member.email);
    await checkPage(page, 'password-reset-request');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText('Check your e-mail').waitFor();

    // An unknown address gets the very same answer.
    const unknown = await newPage();
    await unknown.goto(`${portal.portalUrl}/#/password-reset`);
    await unknown.getByLabel('E-mail').fill(`nobody-${Date.now()}@example.com`);
    await unknown.getByRole('button', { name: 'Send the link' }).click();
    await unknown.getByText('Check your e-mail').waitFor();

    const link = await mailedLink(member.email);
    expect(link).toContain('/#/password-reset?token=');
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
    await checkPage(page, 'password-reset-confirm');
    const newPassword = 'a brand new passphrase';
    await page.getByRole('textbox', { name: /^New password/ }).fill(newPassword);
    await page.getByRole('textbox', { name: /^Repeat the new password/ }).fill(newPassword);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('Your password has been changed').waitFor();

    await page.getByRole('link', { name: 'Sign in with the new password' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByLabel('E-mail').fill(member.email);
    await page.getByRole('textbox', { name: /^Password/ }).fill(PORTAL_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Sign-in failed' }).waitFor();
    await page.getByRole('textbox', { name: /^Password/ }).fill(newPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    // The link worked once.
    await page.goto(link);
    await page.getByRole('textbox', { name: /^New password/ }).fill('yet another passphrase');
    await page.getByRole('textbox', { name: /^Repeat the new password/ }).fill('yet another passphrase');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByRole('alert').filter({ hasText: 'The password could not be changed' }).waitFor();
  });

  it('says withdrawals are live-mode only in test mode, and offers no form', async () => {
    const account = await portal.provision();
    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/withdrawals', account.ownerEmail, 'Withdrawals');
    await page.getByText('Withdrawals are live-mode only').waitFor();
    await page.getByTestId('settlement-account').or(page.getByText('Not set')).first().waitFor();
    expect(await page.getByRole('button', { name: /Request the withdrawal|Set the bank account|Change the bank account/ }).count()).toBe(0);
    expect(await page.getByRole('form', { name: 'Request a withdrawal' }).count()).toBe(0);
    await checkPage(page, 'withdrawals-test-mode');
  });

  it('in live mode: sets the bank account (with the TOTP code) and the frequency, and asks for the code above the large-withdrawal threshold', async () => {
    const account = await portal.provision({ identityVerified: true });
    const secret: string = (await account.owner.post('/api/portal/me/totp/enroll')).body.data.secret;
    // Each code is for one 30-second step of the gateway's clock, and a step's code works once.
    const code = () => {
      portal.gateway.clock.advance(30_000);
      return authenticator.clone({ epoch: portal.gateway.clock.now().getTime() }).generate(secret);
    };
    expect((await account.owner.post('/api/portal/me/totp/confirm', { body: { code: code() } })).status).toBe(200);

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
    expect(await page.getByText('Withdrawals are live-mode only').count()).toBe(0);
    await page.getByText('Set the settlement bank account first.').waitFor();

    await page.getByRole('button', { name: 'Set the bank account' }).click();
    const bank = page.getByRole('form', { name: 'Settlement bank account' });
    await bank.getByLabel('Bank code').fill('058');
    await bank.getByLabel('Account number').fill(`20${String(Date.now()).slice(-8)}`);
    await bank.getByLabel('Authentication code').fill(code());
    await bank.getByRole('button', { name: 'Save the bank account' }).click();
    await page.getByTestId('settlement-account').waitFor();

    await page.getByRole('combobox', { name: 'Automatic withdrawals' }).click();
    await page.getByRole('option', { name: 'Daily' }).click();
    const frequency = async () => (await account.owner.get('/api/portal/settlements/settings')).body.data.auto_settlement_frequency as string;
    for (let i = 0; i < 50 && (await frequency()) !== 'daily'; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await frequency()).toBe('daily');

    // Above LARGE_WITHDRAWAL_THRESHOLD (1,000,000 by default) the API asks for the code; then the empty live wallet refuses.
    const withdraw = page.getByRole('form', { name: 'Request a withdrawal' });
    await withdraw.getByLabel(/Amount/).fill('2000000');
    await withdraw.getByRole('button', { name: 'Request the withdrawal' }).click();
    await withdraw.getByLabel('Authentication code').fill(code());
    await withdraw.getByRole('button', { name: 'Request the withdrawal' }).click();
    const refused = withdraw.getByRole('alert').filter({ hasText: 'The withdrawal was not requested' });
    await refused.waitFor();
    expect(await refused.textContent()).toContain('insufficient_wallet_balance');
    await checkPage(page, 'withdrawals-live');
  });
});
