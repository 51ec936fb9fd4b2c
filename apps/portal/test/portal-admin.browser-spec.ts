/**
 * Browser tests of the admin console (platform staff) against the REAL API, booted in-process on
 * this run's fresh test database with the provider simulator behind it: the settlement approval
 * queue (a financial secretary approves; an admin who asked cannot), the developers pages
 * (provisioning, fee overrides), the failing webhooks and deposits pages, and the refusal of
 * developer-account members. Screenshots of each page (1280 px and 390 px wide) go to
 * PORTAL_SCREENSHOT_DIR (default dist/test-artefacts/portal).
 */
import { ApiKeysService } from '@gateway/domain/api-keys';
import { PLATFORM_ROLES, platformRoleAllows as apiAllows, UsersService } from '@gateway/domain/identity';
import { authenticator } from 'otplib';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { platformRoleAllows, type PlatformPermission } from '../src/features/admin/role-matrix';
import { checkPage } from './support/page-checks';
import { openPages, type PortalInBrowser, signInTo, startPortalInBrowser } from './support/portal-browser';
import { PORTAL_PASSWORD, type PortalAccount, PortalClient } from './support/real-gateway';

describe('the admin console in a browser, against the real API', () => {
  let portal: PortalInBrowser;
  const newPage = openPages(() => portal);

  beforeAll(async () => {
    portal = await startPortalInBrowser({ providerSimulator: true });
  }, 120_000);

  afterAll(async () => {
    await portal?.close();
  });

  /** Platform staff, created the way the operator CLI creates them (`users create-admin`). */
  async function staff(role: 'admin' | 'financial_secretary'): Promise<string> {
    const email = `staff-${role}-${randomBytes(4).toString('hex')}@example.com`;
    await portal.gateway.app.get(UsersService, { strict: false }).createPlatformUser({ email, name: 'Staff', password: PORTAL_PASSWORD, platformRole: role });
    return email;
  }

  interface LiveAccount extends PortalAccount {
    /** A fresh TOTP code of the owner (each on its own 30-second step of the gateway's clock). */
    code: () => string;
    /** The owner asks for a withdrawal (below the large-withdrawal threshold: no code); its reference. */
    requestWithdrawal: (amount: number) => Promise<string>;
  }

  /**
   * An identity-verified account whose owner (TOTP on) works in live mode with a settlement bank
   * account and 9,740 in the live wallet: a live payment of 10,000 paid at the provider.
   */
  async function liveAccount(): Promise<LiveAccount> {
    const account = await portal.provision({ identityVerified: true });
    const totpSecret: string = (await account.owner.post('/api/portal/me/totp/enroll')).body.data.secret;
    const code = () => {
      portal.gateway.clock.advance(30_000);
      return authenticator.clone({ epoch: portal.gateway.clock.now().getTime() }).generate(totpSecret);
    };
    expect((await account.owner.post('/api/portal/me/totp/confirm', { body: { code: code() } })).status).toBe(200);
    expect((await account.owner.put('/api/portal/me/mode', { body: { mode: 'live' }, totp: code() })).status).toBe(200);
    const bank = await account.owner.put('/api/portal/settlements/account', { body: { bank_code: '058', account_number: `30${String(Date.now()).slice(-8)}` }, totp: code() });
    expect(bank.status).toBe(200);

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

    const requestWithdrawal = async (amount: number) => {
      const requested = await account.owner.post('/api/portal/settlements', { body: { amount } });
      expect(requested.status).toBe(201);
      return requested.body.data.reference as string;
    };
    return { ...account, code, requestWithdrawal };
  }

  it('hides exactly what the API refuses: the console’s role matrix is the API’s', () => {
    const permissions: PlatformPermission[] = [
      'platform:developers:read',
      'platform:developers:manage',
      'platform:developers:suspend',
      'platform:fees:read',
      'platform:fees:write',
      'platform:settlements:read',
      'platform:settlements:approve',
      'platform:deposits:read',
      'platform:audit:read',
      'platform:overview:read',
    ];
    for (const role of PLATFORM_ROLES) {
      for (const permission of permissions) expect([role, permission, platformRoleAllows(role, permission)]).toEqual([role, permission, apiAllows(role, permission)]);
    }
  });

  /** The queue's card of one withdrawal. */
  const card = (page: Page, reference: string) => page.getByTestId(`settlement-${reference}`);
  const navigation = (page: Page) => page.getByRole('navigation', { name: 'Portal' });

  it('a financial secretary sees the request with what decides it, and approves it; the console shows only their pages', async () => {
    const account = await liveAccount();
    const earlier = await account.requestWithdrawal(1000);
    const reference = await account.requestWithdrawal(2500.5);
    const secretary = await staff('financial_secretary');

    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/admin/settlements', secretary, 'Settlement approvals');
    const request = card(page, reference);
    await request.getByRole('heading', { name: '₦2,500.50 for Acme Ltd' }).waitFor();
    await request.getByText(account.ownerEmail).waitFor();
    await request.getByText('0 of 1 approval').waitFor();
    // 9,740 − 1,000 − 2,500.50 reserved: the available balance now.
    await request.getByText('₦6,239.50').waitFor();
    // The account's other settlement, from its history.
    await request.getByRole('table', { name: 'Recent settlements of Acme Ltd' }).getByText(earlier).waitFor();

    // Staff without a developer account: the admin section, the status page, no account pages; no audit log for this role.
    const nav = navigation(page);
    await nav.getByRole('link', { name: 'Settlement approvals' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Developers' }).count()).toBe(1);
    expect(await nav.getByRole('link', { name: /Audit log/i }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Dashboard' }).count()).toBe(0);
    await checkPage(page, 'admin-settlements');

    await request.getByRole('button', { name: `Approve ${reference}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve withdrawal' });
    await dialog.getByText('Yours is the last approval needed').waitFor();
    await dialog.getByRole('button', { name: 'Approve withdrawal' }).click();
    await dialog.waitFor({ state: 'detached' });
    await request.waitFor({ state: 'detached' });
    await card(page, earlier).waitFor();

    const decided = await account.owner.get('/api/portal/settlements');
    const settled = (decided.body.data as Array<{ reference: string; status: string; approved_at: string | null }>).find((s) => s.reference === reference);
    expect(settled?.status).not.toBe('pending_approval');
    expect(settled?.approved_at).toEqual(expect.any(String));

    // The account's page is read-only for a secretary: fees and status shown, no action offered.
    await request.waitFor({ state: 'detached' });
    await page.goto(`${portal.portalUrl}/#/admin/developers/${account.developerId}`);
    await page.getByRole('table', { name: 'Platform fee overrides' }).waitFor();
    for (const action of ['Set the NGN fee', 'Suspend account', 'Verify identity', 'Verify e-mail', 'Provision account']) {
      expect([action, await page.getByRole('button', { name: action }).count()]).toEqual([action, 0]);
    }

    // A secretary may not read the audit log: told so, and the API refuses too.
    await page.goto(`${portal.portalUrl}/#/admin/audit`);
    await page.getByRole('heading', { level: 1, name: 'Not permitted' }).waitFor();
    await page.getByText('Your platform role does not include this page').waitFor();
    const secretaryClient = new PortalClient(portal.gateway.baseUrl);
    expect((await secretaryClient.login(secretary)).status).toBe(200);
    const refused = await secretaryClient.get('/api/portal/admin/audit');
    expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_role']);
  });

  it('an admin who asked for a withdrawal from their own account sees why they cannot approve it, and the API refuses them', async () => {
    const account = await liveAccount();
    // The operator's admin is also the owner of a developer account (a platform role given to that person).
    await portal.gateway.app.get(DataSource).query(`UPDATE users SET platform_role = 'admin' WHERE id = $1`, [account.ownerId]);
    const reference = await account.requestWithdrawal(1200);

    const page = await newPage();
    await page.goto(`${portal.portalUrl}/#/admin/settlements`);
    await page.getByLabel('E-mail').fill(account.ownerEmail);
    await page.getByRole('textbox', { name: /^Password/ }).fill(PORTAL_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Authentication code').fill(account.code());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settlement approvals' }).waitFor();

    const own = card(page, reference);
    await own.getByText('You requested this withdrawal, so you cannot approve it').waitFor();
    expect(await own.getByRole('button', { name: `Approve ${reference}` }).count()).toBe(0);
    await own.getByRole('button', { name: `Reject ${reference}` }).waitFor();
    // A member of an account and staff: both sections in the navigation.
    await navigation(page).getByRole('link', { name: 'Dashboard' }).waitFor();
    await navigation(page).getByRole('link', { name: 'Platform audit log' }).waitFor();
    await checkPage(page, 'admin-settlements-own-request');

    // Forced through the API from the same session: 403 with the reason.
    const forced = await page.evaluate(async (ref) => {
      const csrf = ((await (await fetch('/api/portal/auth/csrf', { credentials: 'include' })).json()) as { data: { csrf_token: string } }).data.csrf_token;
      const response = await fetch(`/api/portal/admin/settlements/${ref}/approve`, { method: 'POST', credentials: 'include', headers: { 'X-CSRF-Token': csrf } });
      return { status: response.status, body: (await response.json()) as { code: string; message: string } };
    }, reference);
    expect(forced).toEqual({ status: 403, body: expect.objectContaining({ code: 'insufficient_role', message: 'You requested this settlement: another person must approve it.' }) });

    // Rejecting with a reason is theirs to do: the reason is required, then the request leaves the queue.
    await own.getByRole('button', { name: `Reject ${reference}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject withdrawal' });
    await dialog.getByRole('button', { name: 'Reject withdrawal' }).click();
    await dialog.getByText('Give the account a reason').waitFor();
    await dialog.getByLabel(/Reason/).fill('Wrong bank account');
    await dialog.getByRole('button', { name: 'Reject withdrawal' }).click();
    await dialog.waitFor({ state: 'detached' });
    await own.waitFor({ state: 'detached' });
    const seen = (await account.owner.get('/api/portal/settlements')).body.data as Array<{ reference: string; status: string; rejection_reason: string }>;
    expect(seen.find((s) => s.reference === reference)).toMatchObject({ status: 'rejected', rejection_reason: 'Wrong bank account' });
  });

  it('a member of a developer account cannot reach the console: a clear "not permitted", no admin navigation, and a 403 from the API', async () => {
    const account = await portal.provision();
    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/admin/settlements', account.ownerEmail, 'Not permitted');
    await page.getByText('open to platform admins and financial secretaries only').waitFor();
    expect(await navigation(page).getByRole('link', { name: 'Settlement approvals' }).count()).toBe(0);
    await checkPage(page, 'admin-not-permitted');
    for (const path of ['/api/portal/admin/settlements', '/api/portal/admin/unmatched-deposits', '/api/portal/admin/webhooks/failing', `/api/portal/admin/developers/${account.developerId}`]) {
      const refused = await account.owner.get(path);
      expect([path, refused.status, refused.body.code]).toEqual([path, 403, 'insufficient_role']);
    }
    await page.goto(`${portal.portalUrl}/#/admin/developers/${account.developerId}`);
    await page.getByRole('heading', { level: 1, name: 'Not permitted' }).waitFor();
  });

  it('an admin provisions a developer account, finds it, verifies its e-mail, sets a fee override (seen in the history), suspends and reactivates it', async () => {
    const admin = await staff('admin');
    const existing = await portal.provision();
    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/admin/developers', admin, 'Developers');
    await page.getByRole('table', { name: 'Developers' }).getByText(existing.ownerEmail).waitFor();
    await checkPage(page, 'admin-developers');

    await page.getByRole('button', { name: 'Provision account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Provision a developer account' });
    const name = `Lagos Coffee ${randomBytes(3).toString('hex')}`;
    const ownerEmail = `owner-${randomBytes(4).toString('hex')}@example.com`;
    await dialog.getByLabel('Account name').fill(name);
    await dialog.getByLabel(/Owner’s e-mail/).fill(ownerEmail);
    await dialog.getByRole('button', { name: 'Provision account' }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.getByText(ownerEmail).first().waitFor();

    const fees = page.getByRole('table', { name: 'Platform fee overrides' });
    await fees.getByRole('row', { name: /^NGN/ }).getByText('Default').waitFor();
    await page.getByRole('button', { name: 'Set the NGN fee' }).click();
    const fee = page.getByRole('dialog', { name: 'Set the NGN platform fee' });
    await fee.getByLabel(/Fee per transaction/).fill('7.555');
    await fee.getByRole('button', { name: 'Save fee' }).click();
    await fee.getByText('at most 2 decimals').waitFor();
    await fee.getByLabel(/Fee per transaction/).fill('7.50');
    await fee.getByRole('button', { name: 'Save fee' }).click();
    await fee.waitFor({ state: 'detached' });
    await fees.getByRole('row', { name: /^NGN/ }).getByText('₦7.50').waitFor();
    const history = page.getByRole('table', { name: 'Fee override history' });
    const change = history.getByRole('row').filter({ hasText: admin });
    await change.getByText('Default').waitFor();
    await change.getByText('₦7.50').waitFor();

    // The owner has not accepted the invitation yet: staff verify the e-mail, with a note.
    await page.getByRole('button', { name: 'Verify e-mail' }).click();
    const verify = page.getByRole('dialog', { name: 'Verify e-mail' });
    await verify.getByLabel('Note').fill('Confirmed by phone');
    await verify.getByRole('button', { name: 'Mark e-mail verified' }).click();
    await verify.waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Verify e-mail' }).count()).toBe(0);
    await page.getByText('e-mail verified', { exact: true }).waitFor();
    await checkPage(page, 'admin-developer');

    // Suspended with a required reason, then reactivated.
    await page.getByRole('button', { name: 'Suspend account' }).click();
    const suspend = page.getByRole('dialog', { name: 'Suspend account' });
    await suspend.getByRole('button', { name: 'Suspend account' }).click();
    await suspend.getByText('Enter a reason').waitFor();
    await suspend.getByLabel(/Reason/).fill('Chargeback review');
    await suspend.getByRole('button', { name: 'Suspend account' }).click();
    await suspend.waitFor({ state: 'detached' });
    await page.getByRole('status').getByText('Chargeback review').waitFor();
    await checkPage(page, 'admin-developer-suspended');

    // Found by the search, suspended.
    await page.getByRole('link', { name: 'All developers' }).click();
    await page.getByRole('textbox', { name: 'Name or e-mail' }).fill(name.toUpperCase());
    await page.getByRole('button', { name: 'Search' }).click();
    const found = page.getByRole('table', { name: 'Developers' }).getByRole('row').filter({ hasText: ownerEmail });
    await found.getByText('suspended', { exact: true }).waitFor();
    expect(await page.getByRole('table', { name: 'Developers' }).locator('tbody tr').count()).toBe(1);
    await found.getByRole('link', { name }).click();
    await page.getByRole('button', { name: 'Reactivate account' }).click();
    const reactivate = page.getByRole('dialog', { name: 'Reactivate account' });
    await reactivate.getByRole('button', { name: 'Reactivate account' }).click();
    await reactivate.waitFor({ state: 'detached' });
    await page.getByText('Active: its keys and its members’ pages work.').waitFor();

    const developerId = page.url().split('/').pop() as string;
    const client = new PortalClient(portal.gateway.baseUrl);
    expect((await client.login(admin)).status).toBe(200);
    const stored = await client.get(`/api/portal/admin/developers/${developerId}/fees`);
    expect(stored.body.data).toEqual([{ currency: 'NGN', amount: 7.5 }]);

    // The audit log: the staff's actions on the account, filtered by it.
    await page.goto(`${portal.portalUrl}/#/admin/audit`);
    await page.getByRole('heading', { level: 1, name: 'Platform audit log' }).waitFor();
    await page.getByRole('textbox', { name: 'Account (developer id)' }).fill(developerId);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const audit = page.getByRole('table', { name: 'Audit log' });
    await audit.locator('tr[data-action="developer.suspended"]').waitFor();
    await audit.locator('tr[data-action="developer.reactivated"]').waitFor();
    // The pointer off the button it pressed (axe judges the page at rest, not a hovered button).
    await page.mouse.move(0, 0);
    await checkPage(page, 'admin-audit');
  });

  it('shows failing webhook endpoints across accounts and the unmatched deposits, each page passing the checks', async () => {
    const account = await portal.provision();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const created = await account.owner.post('/api/portal/webhooks', { body: { url: `http://127.0.0.1:${port}/hooks`, events: ['payment.success'], webhook_version: 'v1' } });
    expect(created.status).toBe(201);
    const endpointId = created.body.data.id as string;
    expect((await account.owner.post('/api/portal/webhooks/test', { body: { webhook_id: endpointId } })).body.data.success).toBe(false);

    const admin = await staff('admin');
    const page = await newPage();
    // Staff without a developer account land on the console, whatever account page they asked for.
    await signInTo(page, portal.portalUrl, '#/dashboard', admin, 'Platform overview');
    await navigation(page).getByRole('link', { name: 'Failing webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Failing webhook endpoints' }).waitFor();
    const row = page.getByRole('table', { name: 'Failing webhook endpoints' }).getByRole('row').filter({ hasText: endpointId });
    await row.getByText(`127.0.0.1:${port}`).waitFor();
    await row.getByText('connection refused').waitFor();
    await checkPage(page, 'admin-failing-webhooks');

    await navigation(page).getByRole('link', { name: 'Unmatched deposits' }).click();
    await page.getByRole('heading', { level: 1, name: 'Unmatched deposits' }).waitFor();
    await page.getByText('No unmatched deposits').or(page.getByRole('table', { name: 'Unmatched deposits' })).first().waitFor();
    await checkPage(page, 'admin-deposits');

    await navigation(page).getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { level: 1, name: 'Platform overview' }).waitFor();
    await page.getByRole('table', { name: 'Payments in live mode' }).waitFor();
    await page.getByText('API errors, last 24 hours').waitFor();
    await page.getByTestId('admin-volume-chart').or(page.getByText(/No live-mode NGN payments reached an outcome/)).first().waitFor();
    await checkPage(page, 'admin-overview');
  });
});
