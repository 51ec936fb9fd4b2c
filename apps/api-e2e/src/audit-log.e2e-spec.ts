import { authenticator } from 'otplib';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { http } from './support/http';
import { buyer, startPaymentsHarness, type PaymentsHarness } from './support/payments';
import { type PortalAccount, type PortalClient, provisionAccount, signedInPlatformUser } from './support/portal-client';
import { parse } from 'csv-parse/sync';

interface AuditRow {
  id: string;
  occurred_at: string;
  action: string;
  actor: { type: string; id: string | null; label: string | null };
  developer_id: string | null;
  target: { type: string; id: string } | null;
  ip: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

const accountNumber = () => `2${String(BigInt(`0x${randomBytes(6).toString('hex')}`) % 1_000_000_000n).padStart(9, '0')}`;

/** RFC 4180 records, read by the csv-stringify project's own parser. */
const parseCsv = (text: string): string[][] => parse(text);

/**
 * The audit log over HTTP: every audited action leaves exactly one row with who, from where, what
 * and the state before and after (never a secret); owners see their account's rows only, staff see
 * all; rows cannot be changed; the CSV export is the JSON list.
 */
describe('audit log', () => {
  let h: PaymentsHarness;
  let admin: PortalClient;
  let adminEmail: string;
  let secretary: PortalClient;
  let secretaryEmail: string;
  let account: PortalAccount;
  let other: PortalAccount;

  const now = () => h.gateway.clock.now();
  const code = (secret: string) => authenticator.clone({ epoch: now().getTime() }).generate(secret);
  const rows = async (query: string, client = admin): Promise<AuditRow[]> => {
    const result = await client.get(`/api/portal/admin/audit?${query}&limit=100`);
    expect(result.status).toBe(200);
    return result.body.data as AuditRow[];
  };
  const ofAccount = (developerId: string, action: string) => rows(`developer_id=${developerId}&action=${action}`);

  beforeAll(async () => {
    h = await startPaymentsHarness({ SETTLEMENT_TWO_PERSON_THRESHOLD: 'NGN:5000', LARGE_WITHDRAWAL_THRESHOLD: 'NGN:3000' }, { ownDatabase: true });
    h.gateway.clock.set(new Date('2026-11-26T10:00:00.000Z'));
    ({ client: admin, email: adminEmail } = await signedInPlatformUser(h.gateway));
    ({ client: secretary, email: secretaryEmail } = await signedInPlatformUser(h.gateway, 'financial_secretary'));
    account = await provisionAccount(h.gateway, admin, { identityVerified: true });
    other = await provisionAccount(h.gateway, admin);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('records the provisioning and the sign-ins, with who and from where', async () => {
    expect(await ofAccount(account.developerId, 'developer.provisioned')).toMatchObject([
      { actor: { type: 'user', label: adminEmail }, target: { type: 'developer', id: account.developerId }, ip: expect.any(String), before: null, after: { email: account.ownerEmail, name: 'Acme Ltd' } },
    ]);
    const signIns = await ofAccount(account.developerId, 'portal.sign_in');
    expect(signIns).toMatchObject([{ actor: { type: 'user', id: account.ownerId, label: account.ownerEmail }, target: { type: 'user', id: account.ownerId }, ip: expect.stringMatching(/\d/) }]);
    expect((await rows(`actor=${encodeURIComponent(adminEmail.toUpperCase())}&action=portal.sign_in`)).length).toBe(1);
  });

  it('records key creation, rotation and revocation once each, with hints and never the secret', async () => {
    const created = await account.owner.post('/api/portal/keys', { body: { name: 'ci', scopes: ['customers:read'] } });
    const keyId = created.body.data.key.id as string;
    const rotated = await account.owner.post(`/api/portal/keys/${keyId}/rotate`, { body: {} });
    const successor = rotated.body.data.key.id as string;
    expect((await account.owner.delete(`/api/portal/keys/${successor}`)).status).toBe(200);
    await account.owner.delete(`/api/portal/keys/${successor}`); // harmless, and not recorded again

    const forKey = await rows(`target_type=api_key&target_id=${keyId}`);
    expect(forKey.map((r) => r.action)).toEqual(['api_key.rotated', 'api_key.created']);
    expect(forKey[1]).toMatchObject({ actor: { type: 'user', label: account.ownerEmail }, developer_id: account.developerId, after: { hint: created.body.data.key.hint ?? expect.any(String), scopes: ['customers:read'] } });
    expect(forKey[0]).toMatchObject({ before: { revoked_at: null }, after: { revoked_at: expect.any(String), successor_id: successor } });
    const revoked = await rows(`target_type=api_key&target_id=${successor}&action=api_key.revoked`);
    expect(revoked).toMatchObject([{ before: { revoked_at: null }, after: { revoked_at: expect.any(String) } }]);
    const everything = JSON.stringify(await rows(`developer_id=${account.developerId}`));
    for (const secret of [created.body.data.secret, rotated.body.data.secret]) expect(everything).not.toContain(secret);
  });

  it('records IP allowlist changes and TOTP enrolment', async () => {
    const added = await account.owner.post('/api/portal/ip-allowlist', { body: { cidr: '198.51.100.0/24', label: 'office' } });
    expect((await account.owner.delete(`/api/portal/ip-allowlist/${added.body.data.id}`)).status).toBe(204);
    expect(await ofAccount(account.developerId, 'ip_allowlist.changed')).toMatchObject([
      { target: { type: 'ip_allowlist_entry', id: added.body.data.id }, before: { cidr: '198.51.100.0/24' }, after: null },
      { before: null, after: { cidr: '198.51.100.0/24', label: 'office' } },
    ]);

    const enrolled = await account.owner.post('/api/portal/me/totp/enroll');
    const secret = enrolled.body.data.secret as string;
    expect((await account.owner.post('/api/portal/me/totp/confirm', { body: { code: code(secret) } })).status).toBe(200);
    h.gateway.clock.advance(60_000);
    const totp = await ofAccount(account.developerId, 'totp.enabled');
    expect(totp).toMatchObject([{ actor: { id: account.ownerId }, target: { type: 'user', id: account.ownerId }, before: { totp_enabled: false }, after: { totp_enabled: true } }]);
    expect(JSON.stringify(totp)).not.toContain(secret);
    (account as PortalAccount & { totpSecret?: string }).totpSecret = secret;
  });

  it('records the bank account change and settlement approval and rejection by staff', async () => {
    const secret = (account as PortalAccount & { totpSecret?: string }).totpSecret as string;
    expect((await account.owner.put('/api/portal/me/mode', { body: { mode: 'live' }, totp: code(secret) })).status).toBe(200);
    h.gateway.clock.advance(60_000);
    const number = accountNumber();
    expect((await account.owner.put('/api/portal/settlements/account', { body: { bank_code: '058', account_number: number }, totp: code(secret) })).status).toBe(200);
    h.gateway.clock.advance(60_000);
    expect(await ofAccount(account.developerId, 'bank_account.changed')).toMatchObject([
      { actor: { label: account.ownerEmail }, before: null, after: { bank_code: '058', account_number_last4: number.slice(-4), account_name: expect.any(String) } },
    ]);

    const liveKey = (await account.owner.post('/api/portal/keys', { body: { name: 'live' }, totp: code(secret) })).body.data.secret as string;
    h.gateway.clock.advance(60_000);
    const init = await http(h.gateway.baseUrl, 'POST', '/api/v1/payments/initialize', { token: liveKey, body: { amount: 10_000, email: buyer() } });
    await http(h.sim.url() as string, 'POST', `/sim/transactions/${init.body.data.reference}/complete`, { token: h.secrets.live, body: {} });
    await http(h.gateway.baseUrl, 'POST', '/api/v1/payments/verify', { token: liveKey, body: { reference: init.body.data.reference } });

    const first = (await account.owner.post('/api/portal/settlements', { body: { amount: 1000 } })).body.data.reference as string;
    const second = (await account.owner.post('/api/portal/settlements', { body: { amount: 1500 } })).body.data.reference as string;
    expect((await secretary.post(`/api/portal/admin/settlements/${first}/approve`)).status).toBe(200);
    expect((await admin.post(`/api/portal/admin/settlements/${second}/reject`, { body: { reason: 'Wrong account' } })).status).toBe(200);
    await h.sim.idle();
    expect(await rows(`target_type=settlement&target_id=${first}`)).toMatchObject([
      { action: 'settlement.approved', actor: { type: 'user', label: secretaryEmail }, developer_id: account.developerId, ip: expect.any(String), before: { status: 'pending_approval' }, after: { decision: 'approve', amount: '1000.00', currency: 'NGN' } },
    ]);
    expect(await rows(`target_type=settlement&target_id=${second}`)).toMatchObject([
      { action: 'settlement.rejected', actor: { label: adminEmail }, after: { decision: 'reject', reason: 'Wrong account' } },
    ]);
    expect((await account.owner.put('/api/portal/me/mode', { body: { mode: 'test' } })).status).toBe(200);
  });

  it("shows owners their own account's rows only; other roles and accounts get 403 or nothing", async () => {
    const mine = await account.owner.get('/api/portal/audit?limit=100');
    expect(mine.status).toBe(200);
    expect(mine.body.data.length).toBeGreaterThan(5);
    expect(new Set(mine.body.data.map((r: AuditRow) => r.developer_id))).toEqual(new Set([account.developerId]));
    // developer_id is not a filter of the owners' list: it cannot widen it.
    expect((await account.owner.get(`/api/portal/audit?developer_id=${other.developerId}`)).body.code).toBe('validation_error');

    const theirs = await other.owner.get(`/api/portal/audit?limit=100`);
    expect(theirs.body.data.every((r: AuditRow) => r.developer_id === other.developerId)).toBe(true);
    expect((await other.owner.get(`/api/portal/audit?target_type=developer&target_id=${account.developerId}`)).body.data).toEqual([]);

    for (const role of ['developer', 'admin', 'viewer'] as const) {
      const member = (await account.addMember(role)).client;
      const refused = await member.get('/api/portal/audit');
      expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_role']);
      expect((await member.get('/api/portal/admin/audit')).status).toBe(403);
    }
    expect((await account.owner.get('/api/portal/admin/audit')).body.code).toBe('insufficient_role');
    expect((await secretary.get('/api/portal/admin/audit')).body.code).toBe('insufficient_role');
  });

  it('exports the filtered log as CSV, row for row the JSON list (Accept: text/csv or format=csv)', async () => {
    const json = (await account.owner.get('/api/portal/audit?limit=100')).body.data as AuditRow[];
    for (const csv of [await account.owner.get('/api/portal/audit', { headers: { accept: 'text/csv' } }), await account.owner.get('/api/portal/audit?format=csv')]) {
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      const [header, ...lines] = parseCsv(csv.text);
      expect(header).toEqual(['id', 'occurred_at', 'actor_type', 'actor_id', 'actor_label', 'developer_id', 'action', 'target_type', 'target_id', 'ip', 'before', 'after']);
      expect(lines.map((l) => ({
        id: l[0],
        occurred_at: l[1],
        actor: { type: l[2], id: l[3] || null, label: l[4] || null },
        developer_id: l[5] || null,
        action: l[6],
        target: l[7] ? { type: l[7], id: l[8] } : null,
        ip: l[9] || null,
        before: l[10] ? JSON.parse(l[10]) : null,
        after: l[11] ? JSON.parse(l[11]) : null,
      }))).toEqual(json);
    }
    const filtered = await admin.get(`/api/portal/admin/audit?developer_id=${account.developerId}&action=api_key.created&format=csv`);
    const json2 = await ofAccount(account.developerId, 'api_key.created');
    expect(parseCsv(filtered.text).slice(1).map((l) => l[0])).toEqual(json2.map((r) => r.id));
  });

  it('pages newest first by cursor, and refuses to change or delete a row', async () => {
    const all = await rows(`developer_id=${account.developerId}`);
    const first = await admin.get(`/api/portal/admin/audit?developer_id=${account.developerId}&limit=3`);
    const second = await admin.get(`/api/portal/admin/audit?developer_id=${account.developerId}&limit=3&cursor=${first.body.meta.next_cursor}`);
    expect([...first.body.data, ...second.body.data].map((r: AuditRow) => r.id)).toEqual(all.slice(0, 6).map((r) => r.id));
    expect((await admin.get('/api/portal/admin/audit?cursor=forged')).body.code).toBe('validation_error');

    const db = h.gateway.app.get(DataSource);
    await expect(db.query(`UPDATE audit_events SET action = 'forged' WHERE id = $1`, [all[0].id])).rejects.toThrow(/append-only/);
    await expect(db.query(`DELETE FROM audit_events WHERE id = $1`, [all[0].id])).rejects.toThrow(/append-only/);
    expect((await rows(`developer_id=${account.developerId}`)).map((r) => r.id)).toEqual(all.map((r) => r.id));
  });
});
