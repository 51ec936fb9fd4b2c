/**
 * Browser tests of the signed-in portal against the REAL API (booted in-process on this run's fresh
 * test database): `vite build` → `vite preview` proxying /api to it → Chromium via playwright-core.
 * Never downloads a browser (CHROMIUM_PATH, default Debian's /usr/bin/chromium).
 */
import { authenticator } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { type PortalInBrowser, startPortalInBrowser } from './support/portal-browser';
import { checkPage } from './support/page-checks';
import { PORTAL_PASSWORD, type PortalAccount, type TestGateway } from './support/real-gateway';

describe('portal sessions and API keys in a browser, against the real API', () => {
  let portal: PortalInBrowser;
  let gateway: TestGateway;
  let provision: (options?: { identityVerified?: boolean }) => Promise<PortalAccount>;
  let browser: Browser;
  let portalUrl = '';
  let page: Page;
  let pageErrors: string[] = [];

  beforeAll(async () => {
    portal = await startPortalInBrowser();
    ({ gateway, provision, browser, portalUrl } = portal);
  }, 120_000);

  afterAll(async () => {
    await portal?.close();
  });

  beforeEach(async () => {
    pageErrors = [];
    page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterEach(async () => {
    await page?.close();
    expect(pageErrors).toEqual([]);
  });

  async function fillPasswordStep(email: string, password = PORTAL_PASSWORD): Promise<void> {
    await page.goto(`${portalUrl}/#/keys`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('textbox', { name: /^Password/ }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('refuses a wrong password with the API’s message', async () => {
    const account = await provision();
    await fillPasswordStep(account.ownerEmail, 'not the password at all');
    await page.getByRole('alert').filter({ hasText: 'Invalid e-mail or password.' }).waitFor();
    expect(new URL(page.url()).hash).toContain('#/sign-in');
  });

  it('signs in, shows the layout, creates a key whose secret is shown once, revokes it, signs out', async () => {
    const account = await provision();
    await fillPasswordStep(account.ownerEmail);

    // Back to the page asked for, in the layout with the account and mode.
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    expect(await page.title()).toBe('API keys · Gateway');
    const banner = page.getByRole('banner');
    await banner.getByText('Test mode').waitFor();
    expect(await banner.getByTestId('account-name').textContent()).toBe('Acme Ltd');
    expect(await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'API keys' }).getAttribute('aria-current')).toBe('page');
    await page.getByText('No test keys yet').waitFor();

    await page.getByRole('button', { name: 'Create key' }).click();
    const createDialog = page.getByRole('dialog', { name: 'Create an API key' });
    await createDialog.getByLabel('Name').fill('Checkout server');
    await createDialog.getByRole('button', { name: 'Create key' }).click();

    const secretDialog = page.getByRole('dialog', { name: 'Your new key' });
    const secret = (await secretDialog.getByTestId('new-key-secret').textContent()) ?? '';
    expect(secret).toMatch(/^sk_test_/);
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await secretDialog.waitFor({ state: 'detached' });

    // Listed by its hint only: the secret is nowhere on the page any more, nor in storage.
    const table = page.getByRole('table', { name: 'API keys' });
    await table.getByText('Checkout server').waitFor();
    await checkPage(page, 'keys');
    expect(await page.content()).not.toContain(secret);
    expect(await page.evaluate<string>('JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })')).not.toContain(secret);

    // The key works against the real API (curl-equivalent fetch).
    const used = await fetch(`${gateway.baseUrl}/api/v1/customers`, { headers: { authorization: `Bearer ${secret}` } });
    expect(used.status).toBe(200);

    await table.getByRole('button', { name: /^Revoke / }).click();
    const revokeDialog = page.getByRole('dialog', { name: 'Revoke key' });
    await revokeDialog.getByRole('button', { name: 'Revoke key' }).click();
    await table.getByText('revoked').waitFor();
    const refused = await fetch(`${gateway.baseUrl}/api/v1/customers`, { headers: { authorization: `Bearer ${secret}` } });
    expect(refused.status).toBe(401);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await checkPage(page, 'sign-in');
    await page.goto(`${portalUrl}/#/keys`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  });

  it('asks for the TOTP code when the user has enabled TOTP', async () => {
    const account = await provision();
    const enrolled = await account.owner.post('/api/portal/me/totp/enroll');
    const totpSecret: string = enrolled.body.data.secret;
    const code = () => authenticator.clone({ epoch: gateway.clock.now().getTime() }).generate(totpSecret);
    const confirmed = await account.owner.post('/api/portal/me/totp/confirm', { body: { code: code() } });
    expect(confirmed.status).toBe(200);
    // The confirming code's step is used up: sign in with the next step's code.
    gateway.clock.advance(30_000);

    await fillPasswordStep(account.ownerEmail);
    await page.getByRole('heading', { level: 1, name: 'Two-step verification' }).waitFor();
    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'That code did not work' }).waitFor();

    await page.getByLabel('Authentication code').fill(code());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
  });

  it('sends the user to sign in when the session ends', async () => {
    const account = await provision();
    await fillPasswordStep(account.ownerEmail);
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();

    // The server forgets the session (as after idle expiry); the next call answers 401.
    await page.context().clearCookies();
    const nav = page.getByRole('navigation', { name: 'Portal' });
    await nav.getByRole('link', { name: 'API status' }).click();
    // A page whose data this tab has not loaded yet: its first request meets the ended session.
    await nav.getByRole('link', { name: 'Request logs' }).click();
    await page.getByText('Your session has ended').waitFor();
    expect(new URL(page.url()).hash).toContain('#/sign-in');
  });
});
