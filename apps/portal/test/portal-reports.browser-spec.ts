/**
 * Browser tests of the analytics, reports (exports) and audit-log pages against the REAL API
 * (booted in-process on this run's fresh test database), the provider simulator and the scheduler
 * (in-process too: its queue worker writes the exports' files the API then serves). Payments are
 * taken through the merchant API with a key and the sandbox checkout. Screenshots (1280 px and
 * 390 px) go to PORTAL_SCREENSHOT_DIR.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PortalAccount } from './support/real-gateway';
import { checkPage } from './support/page-checks';
import { createSecretKey, openPages, type PortalInBrowser, signInTo, startPortalInBrowser } from './support/portal-browser';

/** How the portal formats an amount in Chromium's en-US locale (shared/format/money.ts). */
const money = (amount: string | number, currency = 'NGN') =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }).format(String(amount) as `${number}`);

/** 2-decimal amounts in integer minor units, so the test's own sums are exact: 1500.5 → 150050n. */
const minor = (amount: number) => {
  const [whole, fraction = ''] = String(amount).split('.');
  return BigInt(whole + fraction.padEnd(2, '0'));
};
const major = (units: bigint) => `${units / 100n}.${String(units % 100n).padStart(2, '0')}`;

describe('portal analytics, reports and audit pages in a browser, against the real API and scheduler', () => {
  let portal: PortalInBrowser;
  const newPage = openPages(() => portal, { locale: 'en-US' });
  const exportsDir = mkdtempSync(join(tmpdir(), 'gateway-portal-exports-'));

  beforeAll(async () => {
    portal = await startPortalInBrowser({ providerSimulator: true, scheduler: true, env: { EXPORTS_DIR: exportsDir } });
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
    rmSync(exportsDir, { recursive: true, force: true });
  });

  /** A payment initialized with the key for `email` and completed at the sandbox checkout with `outcome`; its reference. */
  async function payment(secret: string, amount: number, email: string, outcome: 'success' | 'declined' = 'success'): Promise<string> {
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
    await call(`/api/v1/sandbox/payments/${reference}/complete`, { outcome });
    return reference;
  }

  /** An account with two successful NGN payments (1,500.50 and 2,500.25, two customers) and a declined one. */
  async function accountWithPayments(): Promise<{ account: PortalAccount; references: string[]; emails: string[] }> {
    const account = await portal.provision();
    const secret = await createSecretKey(account, 'Reports test');
    const stamp = Date.now();
    const emails = [`ada-${stamp}@example.com`, `grace-${stamp}@example.com`];
    const references = [await payment(secret, 1500.5, emails[0]), await payment(secret, 2500.25, emails[1]), await payment(secret, 700, emails[0], 'declined')];
    return { account, references, emails };
  }

  it('shows the payments in the analytics figures, exactly: cards, top customers and charts by day, week and month', async () => {
    const { account, references, emails } = await accountWithPayments();
    // A processed partial refund of the first payment counts in refunds and net.
    expect((await account.owner.post(`/api/portal/payments/${references[0]}/refunds`, { body: { amount: 500 } })).status).toBeLessThan(300);
    type Figures = { volume: number; fees: number; refunds: number; refunds_count: number; net: number; count: number; success_rate: number | null };
    let figures: Figures | undefined;
    for (let i = 0; i < 100; i++) {
      figures = (await account.owner.get('/api/portal/analytics/summary?currency=NGN')).body.data.currencies[0] as Figures;
      if (figures.refunds_count === 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // What the page must show: the test's own exact sums, and the API's fees.
    expect(figures).toMatchObject({ volume: 4000.75, count: 3, success_rate: 0.6667, refunds: 500, refunds_count: 1 });
    const fees = (figures as Figures).fees;
    expect(fees).toBeGreaterThan(0);
    expect((figures as Figures).net).toBe(Number(major(minor(4000.75) - minor(fees) - minor(500))));

    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/analytics', account.ownerEmail, 'Analytics');
    await page.getByTestId('analytics-volume').getByText(money('4000.75')).waitFor();
    expect(await page.getByTestId('analytics-count').textContent()).toContain('2 succeeded, 1 failed, 0 abandoned');
    expect(await page.getByTestId('analytics-success-rate').textContent()).toContain('66.67%');
    expect(await page.getByTestId('analytics-fees').textContent()).toContain(money(fees));
    expect(await page.getByTestId('analytics-refunds').textContent()).toContain(money('500'));
    expect(await page.getByTestId('analytics-net').textContent()).toContain(money(major(minor(4000.75) - minor(fees) - minor(500))));

    // The best customer first.
    const top = page.getByRole('table', { name: 'Top customers (NGN)' });
    const rows = top.locator('tbody tr');
    await rows.first().getByText(emails[1]).waitFor();
    expect(await rows.nth(0).textContent()).toContain(money('2500.25'));
    expect(await rows.nth(1).textContent()).toContain(emails[0]);
    expect(await rows.nth(1).textContent()).toContain(money('1500.50'));

    // The charts drew; the per-day figures are in the table screen readers read.
    await page.getByTestId('analytics-volume-chart').locator('svg.recharts-surface').first().waitFor();
    expect(await page.locator('.recharts-bar-rectangle path, .recharts-bar-rectangle rect').count()).toBeGreaterThan(0);
    const perDay = page.getByRole('table', { name: /Figures per UTC day/ });
    await perDay.getByRole('row').filter({ hasText: money('4000.75') }).waitFor({ state: 'attached' });
    await checkPage(page, 'analytics');

    // By month: one bucket with the whole month's figures.
    await page.getByText('Month', { exact: true }).click();
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('table', { name: /Figures per month/ }).waitFor({ state: 'attached' });

    // Another currency: nothing.
    await page.getByRole('combobox', { name: 'Currency' }).click();
    await page.getByRole('option', { name: 'USD' }).click();
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('No test USD payments in this range').waitFor();
  }, 180_000);

  it('requests a payments export, follows it to completion and downloads the CSV with the payments; a viewer may do the same, as the API allows', async () => {
    const { account, references } = await accountWithPayments();
    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/reports', account.ownerEmail, 'Reports');
    await page.getByText('No test exports yet').waitFor();
    await checkPage(page, 'reports-empty');

    const form = page.getByRole('form', { name: 'Request an export' });
    // Today (the user's own day) is in the default range (this month up to today).
    await form.getByRole('button', { name: 'Request export' }).click();
    await form.getByText('Export requested').waitFor();
    const requested = (await account.owner.get('/api/portal/exports')).body.data as Array<{ reference: string; type: string }>;
    expect(requested).toHaveLength(1);
    const { reference } = requested[0];
    expect(requested[0].type).toBe('payments');

    // The list follows the export until it is ready (polled while queued or running).
    const table = page.getByRole('table', { name: 'Exports' });
    const row = table.locator(`tr[data-reference="${reference}"]`);
    await table.locator(`tr[data-reference="${reference}"][data-status="completed"]`).waitFor({ timeout: 60_000 });
    await row.getByText('ready').waitFor();
    await row.getByText('3 rows', { exact: false }).waitFor();
    await checkPage(page, 'reports');

    // A plain link through the portal's route, with the session cookie.
    const link = row.getByRole('link', { name: `Download CSV of ${reference}` });
    expect(await link.getAttribute('href')).toBe(`/api/portal/exports/${reference}/download`);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const csv = readFileSync((await download.path()) as string, 'utf8');
    for (const paymentReference of references) expect(csv).toContain(paymentReference);
    expect(csv).toContain('1500.50');
    expect(csv).toContain('2500.25');
    expect(csv.trim().split('\n')).toHaveLength(4);

    // A viewer sees it, downloads it and may request one too (`account:read`, as the API rules).
    const viewer = await account.addMember('viewer');
    const viewerPage = await newPage();
    await signInTo(viewerPage, portal.portalUrl, '#/reports', viewer.email, 'Reports');
    await viewerPage.getByRole('link', { name: `Download CSV of ${reference}` }).waitFor();
    await viewerPage.getByRole('button', { name: 'Request export' }).waitFor();
    const viewerAsks = await viewer.client.post('/api/portal/exports', { body: { type: 'customers', from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' } });
    expect(viewerAsks.status).toBe(202);

    // Another account sees none of it.
    const other = await portal.provision();
    const otherPage = await newPage();
    await signInTo(otherPage, portal.portalUrl, '#/reports', other.ownerEmail, 'Reports');
    await otherPage.getByText('No test exports yet').waitFor();
    expect((await other.owner.get(`/api/portal/exports/${reference}/download`)).status).toBe(404);
  }, 180_000);

  it('shows an owner the sign-in and the key created in this test, with the before/after, filters and CSV; others are told only owners see it', async () => {
    const account = await portal.provision();
    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/audit', account.ownerEmail, 'Audit log');
    const created = await account.owner.post('/api/portal/keys', { body: { name: 'Audited key' } });
    expect(created.status).toBe(201);

    await page.getByRole('button', { name: 'Refresh' }).click();
    const table = page.getByRole('table', { name: 'Audit log' });
    const keyRow = table.locator('tr[data-action="api_key.created"]');
    await keyRow.getByText(account.ownerEmail).waitFor();
    await keyRow.getByText('api_key', { exact: true }).waitFor();
    await table.locator('tr[data-action="portal.sign_in"]').first().getByText(account.ownerEmail).waitFor();
    await checkPage(page, 'audit');

    await keyRow.getByRole('button', { name: /^Show changes of api_key\.created/ }).click();
    const changes = page.getByRole('dialog', { name: 'Changes: api_key.created' });
    await changes.getByRole('row').filter({ hasText: 'name' }).getByText('Audited key').waitFor();
    await changes.getByRole('button', { name: 'Close' }).click();

    // Filtering by action leaves the key's row only.
    await page.getByRole('textbox', { name: 'Action' }).fill('api_key.created');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await table.locator('tr[data-action="portal.sign_in"]').first().waitFor({ state: 'detached' });
    await keyRow.waitFor();
    expect(await table.locator('tbody tr').count()).toBe(1);

    // The CSV of the same filters, through the portal's route with the session cookie.
    const csvLink = page.getByRole('link', { name: 'Download CSV' });
    expect(await csvLink.getAttribute('href')).toBe('/api/portal/audit?format=csv&action=api_key.created');
    const [download] = await Promise.all([page.waitForEvent('download'), csvLink.click()]);
    const csv = readFileSync((await download.path()) as string, 'utf8');
    expect(csv).toContain('api_key.created');
    expect(csv).not.toContain('portal.sign_in');

    // An admin of the account: not an owner, so no log (and the API refuses).
    const admin = await account.addMember('admin');
    const adminPage = await newPage();
    await signInTo(adminPage, portal.portalUrl, '#/audit', admin.email, 'Audit log');
    await adminPage.getByText('Only the account’s owners see the audit log').waitFor();
    expect(await adminPage.getByRole('table', { name: 'Audit log' }).count()).toBe(0);
    const refused = await admin.client.get('/api/portal/audit');
    expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_role']);
  }, 180_000);
});
