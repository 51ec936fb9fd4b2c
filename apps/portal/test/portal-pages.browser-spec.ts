/**
 * Browser tests of the IP allowlist, request logs and team pages against the REAL API (booted
 * in-process on this run's fresh test database), set up as portal-session.browser-spec.ts is.
 */
import { type PortalAccount, type PortalClient } from './support/real-gateway';
import { checkPage } from './support/page-checks';
import { createSecretKey, openPages, type PortalInBrowser, signInTo, startPortalInBrowser } from './support/portal-browser';

describe('portal allowlist, request logs and team pages in a browser, against the real API', () => {
  let portal: PortalInBrowser;
  const newPage = openPages(() => portal);

  beforeAll(async () => {
    portal = await startPortalInBrowser();
  }, 120_000);

  afterAll(async () => {
    await portal?.close();
  });

  const createKey = (account: PortalAccount) => createSecretKey(account, 'Logs test');

  /** The request log writer flushes about every second: wait until the request is searchable. */
  async function waitForLog(client: PortalClient, requestId: string): Promise<void> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const found = await client.get(`/api/portal/request-logs?request_id=${encodeURIComponent(requestId)}`);
      if (found.status === 200 && found.body.data.length > 0) return;
      await new Promise((done) => setTimeout(done, 200));
    }
    throw new Error(`request ${requestId} was never logged`);
  }

  it('adds an allowlist entry (the API’s field error first), shows it read-only to a viewer, and removes it', async () => {
    const account = await portal.provision();
    const viewer = await account.addMember('viewer');
    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/ip-allowlist', account.ownerEmail, 'IP allowlist');
    await page.getByText('No entries: every address is allowed').waitFor();

    await page.getByRole('button', { name: 'Add entry' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an allowlist entry' });
    await dialog.getByLabel('Address or range').fill('not-an-address');
    await dialog.getByLabel('Label').fill('Office');
    await dialog.getByRole('button', { name: 'Add entry' }).click();
    // The API's validation message, on the field it is about.
    await dialog.getByText('must be an IPv4 or IPv6 address or CIDR range').waitFor();
    expect(await dialog.getByLabel('Address or range').getAttribute('aria-invalid')).toBe('true');

    await dialog.getByLabel('Address or range').fill('203.0.113.7/24');
    await dialog.getByRole('button', { name: 'Add entry' }).click();
    await dialog.waitFor({ state: 'detached' });
    const table = page.getByRole('table', { name: 'IP allowlist' });
    // Stored in canonical form.
    await table.getByText('203.0.113.0/24').waitFor();
    await table.getByText('Office').waitFor();
    await table.getByText('Every key').waitFor();
    await checkPage(page, 'ip-allowlist');

    const viewerPage = await newPage();
    await signInTo(viewerPage, portal.portalUrl, '#/ip-allowlist', viewer.email, 'IP allowlist');
    await viewerPage.getByRole('table', { name: 'IP allowlist' }).getByText('203.0.113.0/24').waitFor();
    expect(await viewerPage.getByRole('button', { name: 'Add entry' }).count()).toBe(0);
    expect(await viewerPage.getByRole('button', { name: /^Remove / }).count()).toBe(0);

    await table.getByRole('button', { name: 'Remove 203.0.113.0/24' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove allowlist entry' });
    await confirm.getByText('requests from every address will be accepted again').waitFor();
    await confirm.getByRole('button', { name: 'Remove entry' }).click();
    await page.getByText('No entries: every address is allowed').waitFor();
    const listed = await account.owner.get('/api/portal/ip-allowlist');
    expect(listed.body.data).toEqual([]);
  });

  it('shows requests made with a key, filters them and opens one in a drawer', async () => {
    const account = await portal.provision();
    const secret = await createKey(account);
    const call = (path: string) => fetch(`${portal.gateway.baseUrl}${path}`, { headers: { authorization: `Bearer ${secret}` } });
    const ok = await call('/api/v1/customers');
    const missing = await call('/api/v1/customers/cus_does_not_exist');
    expect(ok.status).toBe(200);
    expect(missing.status).toBe(404);
    const okId = ok.headers.get('x-request-id') ?? '';
    const missingId = missing.headers.get('x-request-id') ?? '';
    expect(okId).not.toBe('');
    await waitForLog(account.owner, okId);
    await waitForLog(account.owner, missingId);

    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/request-logs', account.ownerEmail, 'Request logs');
    const table = page.getByRole('table', { name: 'Request logs' });
    const row = (id: string) => table.getByRole('button', { name: `Details of request ${id}` });
    await row(okId).waitFor();
    await row(missingId).waitFor();

    // Status class: only the 404 is left.
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: '4xx client error' }).click();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await row(okId).waitFor({ state: 'detached' });
    await row(missingId).waitFor();

    // Request id: exactly that request.
    await page.getByRole('button', { name: 'Clear' }).click();
    await row(okId).waitFor();
    await page.getByLabel('Request ID').fill(okId);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await row(missingId).waitFor({ state: 'detached' });
    // The filtered list replaces the loader: wait for it before counting its rows.
    await row(okId).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(1);

    await row(okId).click();
    const drawer = page.getByRole('dialog', { name: 'Request details' });
    await drawer.getByText('GET /api/v1/customers').waitFor();
    await drawer.getByRole('heading', { name: 'Response body' }).waitFor();
    await drawer.getByText(okId).waitFor();
    await checkPage(page, 'request-log-drawer');
    expect(await page.evaluate<string>('JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })')).not.toContain(secret);
  });

  it('invites a member, shows the pending invitation, and withdraws it', async () => {
    const account = await portal.provision();
    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/team', account.ownerEmail, 'Team');
    await page.getByRole('table', { name: 'Team members' }).getByText(account.ownerEmail).waitFor();
    await page.getByText('No pending invitations.').waitFor();

    const email = `invitee-${Date.now()}@example.com`;
    await page.getByRole('button', { name: 'Invite member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a member' });
    await dialog.getByLabel('E-mail').fill(email);
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: /^Viewer/ }).click();
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.waitFor({ state: 'detached' });

    const invitations = page.getByRole('table', { name: 'Pending invitations' });
    await invitations.getByText(email).waitFor();
    await invitations.getByText('viewer').waitFor();
    await checkPage(page, 'team');

    await invitations.getByRole('button', { name: `Withdraw the invitation to ${email}` }).click();
    await page.getByRole('dialog', { name: 'Withdraw invitation' }).getByRole('button', { name: 'Withdraw invitation' }).click();
    await page.getByText('No pending invitations.').waitFor();
    const pending = await account.owner.get('/api/portal/team/invitations');
    expect(pending.body.data).toEqual([]);
  });

  it('shows the team read-only to a viewer, and an owner-only refusal from the API to an admin', async () => {
    const account = await portal.provision();
    const admin = await account.addMember('admin');
    const viewer = await account.addMember('viewer');

    const viewerPage = await newPage();
    await signInTo(viewerPage, portal.portalUrl, '#/team', viewer.email, 'Team');
    await viewerPage.getByRole('table', { name: 'Team members' }).getByText(admin.email).waitFor();
    expect(await viewerPage.getByRole('button', { name: 'Invite member' }).count()).toBe(0);
    expect(await viewerPage.getByRole('button', { name: /^(Change the role|Remove) / }).count()).toBe(0);
    expect(await viewerPage.getByRole('heading', { name: 'Pending invitations' }).count()).toBe(0);

    // Admins manage the team, but anything involving an owner is the API's to refuse.
    const page = await newPage();
    await signInTo(page, portal.portalUrl, '#/team', admin.email, 'Team');
    await page.getByRole('button', { name: `Change the role of ${account.ownerEmail}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Change role' });
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: /^Viewer/ }).click();
    await dialog.getByRole('button', { name: 'Save role' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The role was not changed' }).getByText('insufficient_role', { exact: false }).waitFor();
    const members = await account.owner.get('/api/portal/team/members');
    expect(members.body.data.find((member: { email: string }) => member.email === account.ownerEmail)?.role).toBe('owner');
  });
});
