import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { http } from './support/http';
import { startPaymentsHarness, type PaymentsHarness } from './support/payments';
import { type PortalAccount, type PortalClient, provisionAccount, signedInPlatformUser, uniqueEmail } from './support/portal-client';

interface AuditRow {
  action: string;
  actor: { type: string; id: string | null; label: string | null };
  developer_id: string | null;
  target: { type: string; id: string } | null;
  ip: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/**
 * Platform staff's account administration over HTTP: search, e-mail and identity verification with
 * a note, suspension (which refuses the account's keys and its members at once) and the fee history.
 */
describe('admin: developer accounts', () => {
  let h: PaymentsHarness;
  let admin: PortalClient;
  let adminEmail: string;
  let secretary: PortalClient;

  const auditOf = async (developerId: string, action: string): Promise<AuditRow[]> => {
    const result = await admin.get(`/api/portal/admin/audit?developer_id=${developerId}&action=${action}&limit=100`);
    expect(result.status).toBe(200);
    return result.body.data as AuditRow[];
  };

  /** An account whose owner issued a test secret key in the portal (test mode works: accepting the invitation verified the e-mail). */
  async function accountWithKey(): Promise<PortalAccount & { key: string }> {
    const account = await provisionAccount(h.gateway, admin);
    const issued = await account.owner.post('/api/portal/keys', { body: { name: 'server' } });
    expect(issued.status).toBe(201);
    return { ...account, key: issued.body.data.secret as string };
  }
  const payments = (key: string) => http(h.gateway.baseUrl, 'GET', '/api/v1/payments', { token: key });

  beforeAll(async () => {
    h = await startPaymentsHarness({}, { ownDatabase: true });
    ({ client: admin, email: adminEmail } = await signedInPlatformUser(h.gateway));
    secretary = (await signedInPlatformUser(h.gateway, 'financial_secretary')).client;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('keeps account members out of every admin route (403 insufficient_role)', async () => {
    const account = await provisionAccount(h.gateway, admin);
    const developer = (await account.addMember('developer')).client;
    for (const client of [developer, account.owner]) {
      for (const attempt of [
        client.get('/api/portal/admin/developers'),
        client.get('/api/portal/admin/audit'),
        client.post(`/api/portal/admin/developers/${account.developerId}/suspend`, { body: { reason: 'self' } }),
        client.post(`/api/portal/admin/developers/${account.developerId}/verify-email`, { body: {} }),
        client.get(`/api/portal/admin/developers/${account.developerId}/fees/history`),
      ]) {
        const result = await attempt;
        expect([result.status, result.body.code]).toEqual([403, 'insufficient_role']);
      }
    }
  });

  it('finds accounts by part of the name or e-mail, case-insensitive, newest first, by status', async () => {
    const tag = randomBytes(4).toString('hex');
    const first = await admin.post('/api/portal/admin/developers', { body: { email: `first-${tag}@example.com`, name: `Kilimanjaro Foods ${tag}` } });
    const second = await admin.post('/api/portal/admin/developers', { body: { email: `second-${tag}@example.com`, name: 'Other Co' } });
    expect([first.status, second.status]).toEqual([201, 201]);

    const byName = await admin.get(`/api/portal/admin/developers?q=${encodeURIComponent(`MANJARO FOODS ${tag.toUpperCase()}`)}`);
    expect(byName.status).toBe(200);
    expect(byName.body.data.map((d: { email: string }) => d.email)).toEqual([`first-${tag}@example.com`]);
    expect(byName.body.data[0]).toMatchObject({ status: 'active', email_verified_at: null, identity_verified_at: null, suspended_at: null, created_at: expect.any(String) });

    const byEmail = (await secretary.get(`/api/portal/admin/developers?q=${tag}@example`)).body;
    expect(byEmail.data.map((d: { email: string }) => d.email)).toEqual([`second-${tag}@example.com`, `first-${tag}@example.com`]);

    const page1 = await admin.get(`/api/portal/admin/developers?q=${tag}&limit=1`);
    const page2 = await admin.get(`/api/portal/admin/developers?q=${tag}&limit=1&cursor=${page1.body.meta.next_cursor}`);
    expect([...page1.body.data, ...page2.body.data].map((d: { email: string }) => d.email)).toEqual([`second-${tag}@example.com`, `first-${tag}@example.com`]);
    expect(page2.body.meta.has_more).toBe(false);

    expect((await admin.get(`/api/portal/admin/developers?q=${tag}&status=suspended`)).body.data).toEqual([]);
    expect((await admin.get('/api/portal/admin/developers?status=paused')).body.code).toBe('validation_error');
  });

  it('verifies the e-mail and identity once each, keeping the staff note in the audit row', async () => {
    const created = await admin.post('/api/portal/admin/developers', { body: { email: uniqueEmail('verify'), name: 'Verify Me' } });
    const id = created.body.data.developer.id as string;

    const email = await admin.post(`/api/portal/admin/developers/${id}/verify-email`, { body: { note: 'Called the owner on +234 801 000 0000' } });
    expect(email.status).toBe(200);
    expect(email.body.data).toMatchObject({ email_verified: true, email_verified_at: expect.any(String) });
    const again = await admin.post(`/api/portal/admin/developers/${id}/verify-email`, { body: { note: 'twice' } });
    expect(again.body.data.email_verified_at).toBe(email.body.data.email_verified_at);

    const identity = await admin.post(`/api/portal/admin/developers/${id}/verify-identity`, { body: { note: 'CAC certificate RC-123 checked' } });
    expect(identity.status).toBe(200);
    await admin.post(`/api/portal/admin/developers/${id}/verify-identity`);

    expect(await auditOf(id, 'developer.email_verified')).toMatchObject([
      { actor: { type: 'user', label: adminEmail }, target: { type: 'developer', id }, ip: expect.any(String), before: { email_verified_at: null }, after: { note: 'Called the owner on +234 801 000 0000' } },
    ]);
    expect(await auditOf(id, 'developer.identity_verified')).toMatchObject([{ actor: { label: adminEmail }, after: { note: 'CAC certificate RC-123 checked', identity_verified_at: expect.any(String) } }]);

    const long = await admin.post(`/api/portal/admin/developers/${id}/verify-email`, { body: { note: 'x'.repeat(501) } });
    expect([long.status, long.body.code]).toEqual([400, 'validation_error']);
  });

  it("suspends an account: its keys get 403 account_suspended at once, its members too on account routes; reactivation restores both", async () => {
    const account = await accountWithKey();
    const member = (await account.addMember('developer')).client;
    expect((await payments(account.key)).status).toBe(200);

    const secretaryTry = await secretary.post(`/api/portal/admin/developers/${account.developerId}/suspend`, { body: { reason: 'fraud' } });
    expect([secretaryTry.status, secretaryTry.body.code]).toEqual([403, 'insufficient_role']);
    expect((await admin.post(`/api/portal/admin/developers/${account.developerId}/suspend`, { body: { reason: '  ' } })).body.code).toBe('validation_error');

    const suspended = await admin.post(`/api/portal/admin/developers/${account.developerId}/suspend`, { body: { reason: 'Chargeback ratio above 2%' } });
    expect(suspended.status).toBe(200);
    expect(suspended.body.data).toMatchObject({ status: 'suspended', suspended_at: expect.any(String), suspension_reason: 'Chargeback ratio above 2%' });

    const refused = await payments(account.key);
    expect([refused.status, refused.body.code]).toEqual([403, 'account_suspended']);
    expect(refused.body.message).toMatch(/suspended/);
    for (const client of [account.owner, member]) {
      const keys = await client.get('/api/portal/keys');
      expect([keys.status, keys.body.code]).toEqual([403, 'account_suspended']);
    }
    // Who they are stays readable (the portal shows why), and staff routes are unaffected.
    expect((await account.owner.get('/api/portal/me')).status).toBe(200);
    expect((await admin.get(`/api/portal/admin/developers/${account.developerId}`)).body.data.status).toBe('suspended');
    expect((await admin.get(`/api/portal/admin/developers?status=suspended&limit=100`)).body.data.map((d: { id: string }) => d.id)).toContain(account.developerId);

    const twice = await admin.post(`/api/portal/admin/developers/${account.developerId}/suspend`, { body: { reason: 'again' } });
    expect([twice.status, twice.body.code]).toEqual([409, 'invalid_state']);
    expect(twice.body.message).toMatch(/suspended/);

    const reactivated = await admin.post(`/api/portal/admin/developers/${account.developerId}/reactivate`);
    expect(reactivated.status).toBe(200);
    expect(reactivated.body.data).toMatchObject({ status: 'active', suspended_at: null, suspension_reason: null });
    expect((await payments(account.key)).status).toBe(200);
    expect((await member.get('/api/portal/keys')).status).toBe(200);

    const active = await admin.post(`/api/portal/admin/developers/${account.developerId}/reactivate`);
    expect([active.status, active.body.code]).toEqual([409, 'invalid_state']);
    expect(active.body.message).toMatch(/active/);

    expect(await auditOf(account.developerId, 'developer.suspended')).toMatchObject([
      {
        actor: { type: 'user', label: adminEmail },
        developer_id: account.developerId,
        target: { type: 'developer', id: account.developerId },
        ip: expect.any(String),
        before: { status: 'active' },
        after: { status: 'suspended', suspension_reason: 'Chargeback ratio above 2%' },
      },
    ]);
    expect(await auditOf(account.developerId, 'developer.reactivated')).toMatchObject([{ before: { status: 'suspended' }, after: { status: 'active' } }]);
  });

  it('keeps every fee override change with the previous amount and who made it', async () => {
    const account = await provisionAccount(h.gateway, admin);
    expect((await admin.put(`/api/portal/admin/developers/${account.developerId}/fees/NGN`, { body: { amount: 50 } })).status).toBe(200);
    expect((await admin.put(`/api/portal/admin/developers/${account.developerId}/fees/NGN`, { body: { amount: 12.5 } })).status).toBe(200);
    const history = await secretary.get(`/api/portal/admin/developers/${account.developerId}/fees/history`);
    expect(history.status).toBe(200);
    expect(history.body.data).toEqual([
      { currency: 'NGN', amount: 12.5, previous_amount: 50, changed_by: adminEmail, changed_at: expect.any(String) },
      { currency: 'NGN', amount: 50, previous_amount: null, changed_by: adminEmail, changed_at: expect.any(String) },
    ]);
    const detail = (await admin.get(`/api/portal/admin/developers/${account.developerId}`)).body.data;
    expect(detail.fee_overrides).toEqual([{ currency: 'NGN', amount: 12.5 }]);
    expect(detail.fee_override_history).toEqual(history.body.data);
    const stored = await h.gateway.app.get(DataSource).query(`SELECT amount::text, previous_amount::text FROM developer_fee_override_changes WHERE developer_id = $1 ORDER BY seq`, [account.developerId]);
    expect(stored).toEqual([
      { amount: '50.00', previous_amount: null },
      { amount: '12.50', previous_amount: '50.00' },
    ]);
    expect(await auditOf(account.developerId, 'fee_override.set')).toMatchObject([
      { actor: { label: adminEmail }, before: { currency: 'NGN', amount: '50.00' }, after: { currency: 'NGN', amount: '12.50' } },
      { before: { currency: 'NGN', amount: null }, after: { currency: 'NGN', amount: '50.00' } },
    ]);
    const secretaryWrite = await secretary.put(`/api/portal/admin/developers/${account.developerId}/fees/NGN`, { body: { amount: 1 } });
    expect(secretaryWrite.status).toBe(403);
  });
});
