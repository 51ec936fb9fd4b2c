import { type TestGateway, startGateway } from './support/gateway';
import { http, type HttpResult } from './support/http';
import { type PortalAccount, provisionAccount, signedInPlatformUser } from './support/portal-client';

/** A merchant API call proving whether a key works (GET /api/v1/customers needs customers:read). */
function listCustomers(gateway: TestGateway, key: string): Promise<HttpResult> {
  return http(gateway.baseUrl, 'GET', '/api/v1/customers', { token: key });
}

/** Polls until `check` passes or a short deadline ends (the request-log writer flushes every 50 ms here). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('portal keys, IP allowlist and request logs', () => {
  let gateway: TestGateway;
  let account: PortalAccount;

  beforeAll(async () => {
    gateway = await startGateway({ REQUEST_LOG_FLUSH_INTERVAL_MS: '50' });
    const admin = (await signedInPlatformUser(gateway)).client;
    account = await provisionAccount(gateway, admin);
  });
  afterAll(() => gateway.close());

  async function newKey(body: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
    const created = await account.owner.post('/api/portal/keys', { body });
    expect(created.status).toBe(201);
    return { id: created.body.data.key.id, secret: created.body.data.secret };
  }

  describe('keys', () => {
    it('generates a working secret key shown once; the list shows only its hint', async () => {
      const created = await account.owner.post('/api/portal/keys', { body: { name: 'server' } });
      expect(created.status).toBe(201);
      const { key, secret } = created.body.data;
      expect(secret).toMatch(/^sk_test_/);
      expect(key).toMatchObject({ mode: 'test', kind: 'secret', name: 'server', scopes: [], status: 'active', hint: `sk_test_…${secret.slice(-4)}`, last_used_at: null });
      expect((await listCustomers(gateway, secret)).status).toBe(200);

      const list = await account.owner.get('/api/portal/keys');
      expect(list.text).not.toContain(secret);
      expect(list.body.data.find((k: { id: string }) => k.id === key.id)).toMatchObject({ hint: key.hint, last_used_at: null });
    });

    it('generates publishable keys and refuses unknown scopes and fields', async () => {
      const publishable = await account.owner.post('/api/portal/keys', { body: { kind: 'publishable' } });
      expect(publishable.body.data.secret).toMatch(/^pk_test_/);
      const bad = await account.owner.post('/api/portal/keys', { body: { scopes: ['payments:delete'] } });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.scopes).toBeDefined();
      expect((await account.owner.post('/api/portal/keys', { body: { mode: 'live' } })).status).toBe(400);
    });

    // The key was just used, so this instance holds it in its key cache: the change must reach the
    // very next request to the same instance, not one a cache lifetime later. (Other instances hear
    // of it by NOTIFY: authentication.e2e-spec.ts.)
    it('re-scoping applies to the next request', async () => {
      const key = await newKey({ scopes: ['payments:read'] });
      const refused = await listCustomers(gateway, key.secret);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('insufficient_scope');
      const rescoped = await account.owner.put(`/api/portal/keys/${key.id}/scopes`, { body: { scopes: ['customers:read'] } });
      expect(rescoped.body.data.scopes).toEqual(['customers:read']);
      expect((await listCustomers(gateway, key.secret)).status).toBe(200);
      const narrowed = await account.owner.put(`/api/portal/keys/${key.id}/scopes`, { body: { scopes: ['payments:read'] } });
      expect(narrowed.body.data.scopes).toEqual(['payments:read']);
      expect((await listCustomers(gateway, key.secret)).body.code).toBe('insufficient_scope');
    });

    it('revoking stops the key at once', async () => {
      const key = await newKey();
      expect((await listCustomers(gateway, key.secret)).status).toBe(200);
      const revoked = await account.owner.delete(`/api/portal/keys/${key.id}`);
      expect(revoked.body.data).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
      expect((await listCustomers(gateway, key.secret)).status).toBe(401);
      expect((await account.owner.post(`/api/portal/keys/${key.id}/rotate`, { body: {} })).body.code).toBe('invalid_state');
    });

    it('rotation without overlap replaces the key at once, keeping name and scopes', async () => {
      const old = await newKey({ name: 'rotating', scopes: ['customers:read'] });
      expect((await listCustomers(gateway, old.secret)).status).toBe(200);
      const rotated = await account.owner.post(`/api/portal/keys/${old.id}/rotate`, { body: {} });
      expect(rotated.status).toBe(201);
      expect(rotated.body.data.key).toMatchObject({ name: 'rotating', scopes: ['customers:read'], status: 'active' });
      expect(rotated.body.data.previous).toMatchObject({ id: old.id, status: 'revoked' });
      expect((await listCustomers(gateway, rotated.body.data.secret)).status).toBe(200);
      expect((await listCustomers(gateway, old.secret)).status).toBe(401);
    });

    it('rotation with an overlap keeps both keys valid until the overlap ends', async () => {
      const old = await newKey();
      const rotated = await account.owner.post(`/api/portal/keys/${old.id}/rotate`, { body: { overlap_hours: 2 } });
      expect(rotated.body.data.previous).toMatchObject({ status: 'expiring', expires_at: new Date(gateway.clock.now().getTime() + 2 * 3_600_000).toISOString() });
      const successor = rotated.body.data.secret as string;

      gateway.clock.advance(2 * 3_600_000 - 1000);
      expect((await listCustomers(gateway, old.secret)).status).toBe(200);
      expect((await listCustomers(gateway, successor)).status).toBe(200);
      // The owner's session went idle meanwhile; what matters here is the merchant API.
      gateway.clock.advance(1000);
      expect((await listCustomers(gateway, old.secret)).status).toBe(401);
      expect((await listCustomers(gateway, successor)).status).toBe(200);
      await account.owner.login(account.ownerEmail);
    });

    it('refuses an overlap above 168 hours', async () => {
      const key = await newKey();
      const result = await account.owner.post(`/api/portal/keys/${key.id}/rotate`, { body: { overlap_hours: 169 } });
      expect(result.status).toBe(400);
      expect(result.body.errors.overlap_hours).toBeDefined();
    });
  });

  describe('IP allowlist', () => {
    it('adds IPv4, IPv6 and CIDR entries in canonical form, refuses garbage, and enforces them on the API from the next request', async () => {
      const key = await newKey();
      expect((await listCustomers(gateway, key.secret)).status).toBe(200);
      const v6 = await account.owner.post('/api/portal/ip-allowlist', { body: { cidr: '2001:DB8::1/32', label: 'office v6' } });
      expect(v6.status).toBe(201);
      expect(v6.body.data).toMatchObject({ cidr: '2001:db8::/32', api_key_id: null, label: 'office v6' });
      const bad = await account.owner.post('/api/portal/ip-allowlist', { body: { cidr: '300.1.2.3' } });
      expect(bad.status).toBe(400);

      const refused = await listCustomers(gateway, key.secret);
      expect([refused.status, refused.body.code]).toEqual([403, 'ip_not_allowed']);

      const local = await account.owner.post('/api/portal/ip-allowlist', { body: { cidr: '127.0.0.1', api_key_id: key.id } });
      expect(local.body.data).toMatchObject({ cidr: '127.0.0.1/32', api_key_id: key.id });
      expect((await listCustomers(gateway, key.secret)).status).toBe(200);

      const entries = (await account.owner.get('/api/portal/ip-allowlist')).body.data as Array<{ id: string }>;
      expect(entries).toHaveLength(2);
      for (const entry of entries) expect((await account.owner.delete(`/api/portal/ip-allowlist/${entry.id}`)).status).toBe(204);
      expect((await account.owner.get('/api/portal/ip-allowlist')).body.data).toEqual([]);
    });
  });

  describe('request logs', () => {
    it('finds requests by status, path, request id and date, newest first and paginated', async () => {
      const key = await newKey({ scopes: ['payments:read'] });
      const ok = await listCustomers(gateway, (await newKey()).secret);
      const forbidden = await listCustomers(gateway, key.secret);
      const requestId = forbidden.headers.get('x-request-id') as string;

      const byId = await eventually(
        () => account.owner.get(`/api/portal/request-logs?request_id=${requestId}`),
        (r) => r.body?.data?.length === 1,
      );
      expect(byId.body.data[0]).toMatchObject({ request_id: requestId, status_code: 403, method: 'GET', path: '/api/v1/customers', mode: 'test' });

      const byStatus = await account.owner.get('/api/portal/request-logs?status=403');
      expect(byStatus.body.data.map((r: { request_id: string }) => r.request_id)).toContain(requestId);
      expect(byStatus.body.data.every((r: { status_code: number }) => r.status_code === 403)).toBe(true);
      const byClass = await account.owner.get('/api/portal/request-logs?status_class=2xx&path=customers');
      expect(byClass.body.data.map((r: { request_id: string }) => r.request_id)).toContain(ok.headers.get('x-request-id'));

      const future = new Date(gateway.clock.now().getTime() + 3_600_000).toISOString();
      expect((await account.owner.get(`/api/portal/request-logs?from=${encodeURIComponent(future)}`)).body.data).toEqual([]);

      const firstPage = await account.owner.get('/api/portal/request-logs?limit=1');
      expect(firstPage.body.meta).toMatchObject({ has_more: true, limit: 1, next_cursor: expect.any(String) });
      const secondPage = await account.owner.get(`/api/portal/request-logs?limit=1&cursor=${firstPage.body.meta.next_cursor}`);
      expect(secondPage.body.data[0].id).not.toBe(firstPage.body.data[0].id);
      expect((await account.owner.get('/api/portal/request-logs?status=abc')).status).toBe(400);
    });

    it("never shows another account's requests", async () => {
      const admin = (await signedInPlatformUser(gateway)).client;
      const other = await provisionAccount(gateway, admin);
      const otherKey = (await other.owner.post('/api/portal/keys', { body: {} })).body.data.secret as string;
      const theirs = (await listCustomers(gateway, otherKey)).headers.get('x-request-id') as string;
      await eventually(() => other.owner.get(`/api/portal/request-logs?request_id=${theirs}`), (r) => r.body?.data?.length === 1);
      expect((await account.owner.get(`/api/portal/request-logs?request_id=${theirs}`)).body.data).toEqual([]);
      // A search by part of the path that the last day does not fill is collected through the path index, across accounts' rows: still only ours.
      const byPath = await account.owner.get('/api/portal/request-logs?path=customers&limit=100');
      expect(byPath.status).toBe(200);
      expect(byPath.body.data.length).toBeGreaterThan(0);
      expect(byPath.body.data.map((r: { request_id: string }) => r.request_id)).not.toContain(theirs);
    });
  });
});
