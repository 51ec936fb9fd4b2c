/**
 * Browser tests of the Sandbox and Settings pages and the layout's Test / Live switch against the
 * REAL API (booted in-process on this run's fresh test database) with the provider simulator
 * behind it: payments are initialized through the merchant API with a key, then driven from the
 * Sandbox page. Screenshots (1280 px and 390 px) go to PORTAL_SCREENSHOT_DIR.
 */
import { authenticator } from 'otplib';
import { type PortalAccount } from './support/real-gateway';
import { checkPage } from './support/page-checks';
import { createSecretKey, openPages, type PortalInBrowser, signInTo, startPortalInBrowser } from './support/portal-browser';

describe('portal sandbox and settings pages in a browser, against the real API', () => {
  let portal: PortalInBrowser;
  const newPage = openPages(() => portal);

  beforeAll(async () => {
    portal = await startPortalInBrowser({ providerSimulator: true });
  }, 120_000);

  afterAll(async () => {
    await portal?.close();
  });

  const createKey = (account: PortalAccount) => createSecretKey(account, 'Sandbox test');

  /** A pending checkout initialized through the merchant API with the key; returns its reference. */
  async function pendingPayment(secret: string, amount: number): Promise<string> {
    const response = await fetch(`${portal.gateway.baseUrl}/api/v1/payments/initialize`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount, email: `buyer-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com` }),
    });
    const json = (await response.json()) as { data: { reference: string; status: string } };
    if (!response.ok) throw new Error(`initialize: ${response.status} ${JSON.stringify(json)}`);
    expect(json.data.status).toBe('pending');
    return json.data.reference;
  }

  async function statusOf(account: PortalAccount, reference: string): Promise<string> {
    const payment = await account.owner.get(`/api/portal/payments/${reference}`);
    expect(payment.status).toBe(200);
    return payment.body.data.status as string;
  }

  /** The next TOTP step's code (each step is accepted once: the gateway's clock moves on first). */
  function nextCode(secret: string): string {
    portal.gateway.clock.advance(30_000);
    return authenticator.clone({ epoch: portal.gateway.clock.now().getTime() }).generate(secret);
  }

  it('completes and declines checkouts, advances and resets the test clock, opens and resolves a dispute', async () => {
    const account = await portal.provision();
    const secret = await createKey(account);
    const paid = await pendingPayment(secret, 10000);
    const declined = await pendingPayment(secret, 2000);
    const left = await pendingPayment(secret, 3000);

    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/sandbox', account.ownerEmail, 'Sandbox');
    await page.getByRole('table', { name: 'Test cards' }).getByText('4084 0840 8408 4081').waitFor();
    const clock = page.getByRole('region', { name: 'Test clock' });
    await clock.getByTestId('test-clock-offset').getByText('On real time').waitFor();

    // Complete one pending checkout (success) and decline another.
    const checkout = page.getByRole('region', { name: 'Complete a checkout' });
    await checkout.getByText('3 pending payments to pick from').waitFor();
    await checkout.getByLabel('Payment reference').fill(paid);
    await checkout.getByLabel('Payment reference').press('Escape');
    await checkout.getByRole('button', { name: 'Complete checkout' }).click();
    await checkout.getByRole('status').getByText(`Payment ${paid} is now success`).waitFor();
    expect(await statusOf(account, paid)).toBe('success');

    await checkout.getByLabel('Payment reference').fill(declined);
    await checkout.getByLabel('Payment reference').press('Escape');
    await checkout.getByRole('combobox', { name: 'Outcome' }).selectOption('declined');
    await checkout.getByRole('button', { name: 'Complete checkout' }).click();
    await checkout.getByRole('status').getByText(`Payment ${declined} is now failed`).waitFor();
    expect(await statusOf(account, declined)).toBe('failed');
    await checkout.getByText('1 pending payment to pick from').waitFor();

    // Two days on the test clock: the pending checkout left over is abandoned, and so is the declined
    // one (a declined checkout stays open to another card until then).
    await clock.getByRole('textbox', { name: 'Advance by' }).fill('2');
    await clock.getByRole('combobox', { name: 'Unit' }).selectOption('days');
    await clock.getByRole('button', { name: 'Advance', exact: true }).click();
    const rules = clock.getByRole('table', { name: 'What the time rules did at the new time' });
    await rules.getByRole('row', { name: 'Abandoned checkouts 2' }).waitFor();
    await rules.getByRole('row', { name: 'Scheduled charges 0' }).waitFor();
    await clock.getByTestId('test-clock-offset').getByText('2 days ahead of real time').waitFor();
    expect(await statusOf(account, left)).toBe('abandoned');
    expect(await statusOf(account, declined)).toBe('abandoned');
    const reading = await account.owner.get('/api/portal/sandbox/clock');
    expect(reading.body.data.offset_seconds).toBe(2 * 86400);
    await checkPage(page, 'sandbox');

    await clock.getByRole('button', { name: 'Reset to real time' }).click();
    await clock.getByTestId('test-clock-offset').getByText('On real time').waitFor();
    await rules.waitFor({ state: 'detached' });
    expect((await account.owner.get('/api/portal/sandbox/clock')).body.data.offset_seconds).toBe(0);

    // A scan from the page: nothing more to abandon.
    const scans = page.getByRole('region', { name: 'Scheduler scans' });
    await scans.getByRole('button', { name: 'Run the abandoned payments scan' }).click();
    await scans.getByRole('status').getByText('Abandoned payments: 0 objects changed.').waitFor();

    // A dispute on the paid payment, then decided as won.
    const disputes = page.getByRole('region', { name: 'Disputes' });
    await disputes.getByLabel('Paid payment').fill(paid);
    await disputes.getByLabel('Paid payment').press('Escape');
    await disputes.getByRole('button', { name: 'Open dispute' }).click();
    const outcome = disputes.getByRole('status');
    await outcome.getByText(/^On payment .*: open, ₦10,000.00 disputed/).waitFor();
    const disputeReference = await disputes.getByRole('textbox', { name: 'Dispute reference' }).inputValue();
    expect(disputeReference).toMatch(/^DSP_/);
    await disputes.getByRole('button', { name: 'Resolve as won' }).click();
    await outcome.getByText(`On payment ${paid}: won`).waitFor();
    // Deciding it again is refused with the API's message.
    await disputes.getByRole('button', { name: 'Resolve as lost' }).click();
    await disputes.getByRole('alert').getByText('invalid_state · HTTP 409').waitFor();

    // A deposit into an unknown virtual account: the API's refusal is shown.
    const deposit = page.getByRole('region', { name: 'Virtual account deposit' });
    await deposit.getByRole('textbox', { name: 'Virtual account ID' }).fill('00000000-0000-4000-8000-000000000000');
    await deposit.getByRole('textbox', { name: 'Amount (NGN)' }).fill('5000');
    await deposit.getByRole('button', { name: 'Deposit' }).click();
    await deposit.getByRole('alert').getByText(/virtual_account_not_found|validation_error/).waitFor();

    // The payments page shows what the sandbox did.
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Payments' }).click();
    const table = page.getByRole('table', { name: 'Payments' });
    await table.getByRole('row').filter({ has: page.getByRole('link', { name: paid }) }).getByText('success').waitFor();
    await table.getByRole('row').filter({ has: page.getByRole('link', { name: left }) }).getByText('abandoned').waitFor();
  });

  it('shows a viewer the sandbox without actions, and the API refuses the viewer', async () => {
    const account = await portal.provision();
    const viewer = await account.addMember('viewer');
    const secret = await createKey(account);
    const reference = await pendingPayment(secret, 1500);

    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/sandbox', viewer.email, 'Sandbox');
    await page.getByText('Your role (viewer) can look at the sandbox but not use it.').waitFor();
    await page.getByRole('region', { name: 'Test clock' }).getByTestId('test-clock-offset').getByText('On real time').waitFor();
    await page.getByRole('table', { name: 'Test cards' }).waitFor();
    for (const name of ['Complete checkout', 'Advance', 'Reset to real time', 'Open dispute', 'Deposit', 'Run now']) {
      expect(await page.getByRole('button', { name }).count()).toBe(0);
    }
    expect(await page.getByRole('button', { name: /^Run the / }).count()).toBe(0);
    await checkPage(page, 'sandbox-viewer');

    const refused = await viewer.client.post(`/api/portal/sandbox/payments/${reference}/complete`, { body: { outcome: 'success' } });
    expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_role']);
    const advance = await viewer.client.post('/api/portal/sandbox/clock/advance', { body: { seconds: 3600 } });
    expect([advance.status, advance.body.code]).toEqual([403, 'insufficient_role']);
    expect((await viewer.client.get('/api/portal/sandbox/clock')).status).toBe(200);
    expect(await statusOf(account, reference)).toBe('pending');
  });

  it('enrols TOTP in Settings, switches to live with a code (other data, no sandbox), and back to test', async () => {
    const account = await portal.provision({ identityVerified: true });
    const secret = await createKey(account);
    const reference = await pendingPayment(secret, 2500);

    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/settings', account.ownerEmail, 'Settings');
    const profile = page.getByRole('table', { name: 'Profile' });
    await profile.getByText(account.ownerEmail).waitFor();
    await profile.getByRole('row', { name: 'Role owner' }).waitFor();
    await profile.getByRole('row', { name: 'Account Acme Ltd' }).waitFor();
    await page.getByRole('link', { name: 'IP allowlist' }).last().waitFor();

    // Switching to live before TOTP is set up: the dialog sends to the set-up instead.
    const banner = page.getByRole('banner');
    await banner.getByText('Live mode').click();
    const dialog = page.getByRole('dialog', { name: 'Switch to live mode' });
    await dialog.getByText('Two-step verification needed').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Enrol: read the key (no scanning), make a code, turn it on.
    const totp = page.getByRole('region', { name: 'Two-step verification' });
    await totp.getByRole('button', { name: 'Set up two-step verification' }).click();
    await totp.getByRole('img', { name: 'QR code to add this account to your authenticator app' }).waitFor();
    const totpSecret = (await totp.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(totpSecret).toMatch(/^[A-Z2-7]{16,}$/);
    await checkPage(page, 'settings-totp-enrolment');
    await totp.getByLabel('Authentication code').fill('000000');
    await totp.getByRole('button', { name: 'Turn on' }).click();
    await totp.getByText('The code is not valid.').waitFor();
    await totp.getByLabel('Authentication code').fill(nextCode(totpSecret));
    await totp.getByRole('button', { name: 'Turn on' }).click();
    await totp.getByText('On', { exact: true }).waitFor();
    expect((await account.owner.get('/api/portal/me')).body.data.totp_enabled).toBe(true);

    // The test payment is shown in test mode.
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Payments' }).click();
    await page.getByRole('table', { name: 'Payments' }).getByRole('link', { name: reference }).waitFor();

    // To live: the switch asks for a code; a wrong one is refused on the field.
    await banner.getByText('Live mode').click();
    await dialog.getByLabel('Authentication code').fill('000000');
    await dialog.getByRole('button', { name: 'Switch to live' }).click();
    await dialog.getByText('The code is not valid.').waitFor();
    await dialog.getByLabel('Authentication code').fill(nextCode(totpSecret));
    await dialog.getByRole('button', { name: 'Switch to live' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('No live payments yet').waitFor();
    expect(await page.getByRole('link', { name: reference }).count()).toBe(0);
    expect(await banner.getByRole('radio', { name: 'Live mode' }).isChecked()).toBe(true);

    // The sandbox offers nothing in live mode.
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Sandbox' }).click();
    await page.getByText('The sandbox works in test mode only').waitFor();
    for (const name of ['Complete checkout', 'Advance', 'Open dispute', 'Deposit']) {
      expect(await page.getByRole('button', { name }).count()).toBe(0);
    }
    expect(await page.getByRole('table', { name: 'Test cards' }).count()).toBe(0);
    await checkPage(page, 'sandbox-live');

    // The API refuses sandbox controls to a live-mode session.
    const live = await account.owner.put('/api/portal/me/mode', { body: { mode: 'live' }, totp: nextCode(totpSecret) });
    expect(live.status).toBe(200);
    const clock = await account.owner.get('/api/portal/sandbox/clock');
    expect([clock.status, clock.body.code]).toEqual([403, 'test_mode_required']);
    const complete = await account.owner.post(`/api/portal/sandbox/payments/${reference}/complete`, { body: {} });
    expect([complete.status, complete.body.code]).toEqual([403, 'test_mode_required']);
    const advance = await account.owner.post('/api/portal/sandbox/clock/advance', { body: { seconds: 60 } });
    expect([advance.status, advance.body.code]).toEqual([403, 'test_mode_required']);
    const testPayment = await account.owner.get(`/api/portal/payments/${reference}`);
    expect([testPayment.status, testPayment.body.code]).toEqual([404, 'payment_not_found']);

    // Back to test: no code needed, and the test data is back.
    await banner.getByText('Test mode').click();
    await page.getByRole('region', { name: 'Test clock' }).waitFor();
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Payments' }).click();
    await page.getByRole('table', { name: 'Payments' }).getByRole('link', { name: reference }).waitFor();
  });

  it('explains live_mode_not_enabled for an account whose identity is not verified', async () => {
    const account = await portal.provision();
    const enrolled = await account.owner.post('/api/portal/me/totp/enroll');
    const totpSecret: string = enrolled.body.data.secret;
    expect((await account.owner.post('/api/portal/me/totp/confirm', { body: { code: nextCode(totpSecret) } })).status).toBe(200);

    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/settings', account.ownerEmail, 'Two-step verification');
    await page.getByLabel('Authentication code').fill(nextCode(totpSecret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByRole('banner').getByText('Live mode').click();
    const dialog = page.getByRole('dialog', { name: 'Switch to live mode' });
    await dialog.getByLabel('Authentication code').fill(nextCode(totpSecret));
    await dialog.getByRole('button', { name: 'Switch to live' }).click();
    // A failure says what the dialog showed instead (a refused code, another error).
    await dialog
      .getByText('Live mode is not enabled for this account yet')
      .waitFor()
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\nThe dialog said: ${await dialog.innerText().catch(() => '(gone)')}`);
      });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await checkPage(page, 'settings');
    expect(await page.getByRole('banner').getByRole('radio', { name: 'Test mode' }).isChecked()).toBe(true);
  });
});
