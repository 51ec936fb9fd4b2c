import { createHash } from 'node:crypto';
import { ApiKeysService, IpAllowlistService } from '@gateway/domain/api-keys';
import { DevelopersService } from '@gateway/domain/developers';
import { query } from './support/db';
import { type TestGateway, startGateway } from './support/gateway';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';

describe('API key authentication', () => {
  let gateway: TestGateway;
  let merchant: TestMerchant;
  const list = (headers: Record<string, string>) => http(gateway.baseUrl, 'GET', '/api/v1/customers', { headers });
  const withKey = (key: string) => list({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    gateway = await startGateway();
    merchant = await createMerchant(gateway);
  });
  afterAll(() => gateway.close());

  it('lets a valid secret key through', async () => {
    expect((await withKey(merchant.key)).status).toBe(200);
  });

  it('answers every kind of bad key with the same 401 body, never echoing the key', async () => {
    const revoked = await merchant.issueKey();
    await gateway.app.get(ApiKeysService, { strict: false }).revoke(merchant.developerId, revoked.keyId);
    const expired = await merchant.issueKey({ expiresAt: new Date(gateway.clock.now().getTime() + 1000) });
    gateway.clock.advance(1001);
    const publishable = await merchant.issueKey({ kind: 'publishable' });

    const attempts: Array<[string, Record<string, string>]> = [
      ['missing', {}],
      ['not bearer', { authorization: `Basic ${merchant.key}` }],
      ['malformed', { authorization: 'Bearer sk_test_short' }],
      ['unknown', { authorization: `Bearer sk_test_${'x'.repeat(32)}` }],
      ['revoked', { authorization: `Bearer ${revoked.key}` }],
      ['expired', { authorization: `Bearer ${expired.key}` }],
      ['publishable on a secret-key route', { authorization: `Bearer ${publishable.key}` }],
      ['extra text', { authorization: `Bearer ${merchant.key} extra` }],
    ];
    const bodies = new Set<string>();
    for (const [, headers] of attempts) {
      const res = await list(headers);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('authentication_failed');
      expect(res.text).not.toContain('sk_test_x');
      expect(res.text).not.toContain(revoked.key);
      bodies.add(res.text);
    }
    expect(bodies.size).toBe(1);
  });

  it('revocation takes effect at once, even for a key that was just used (cached)', async () => {
    const fresh = await merchant.issueKey();
    expect((await withKey(fresh.key)).status).toBe(200);
    expect((await withKey(fresh.key)).status).toBe(200);
    await gateway.app.get(ApiKeysService, { strict: false }).revoke(merchant.developerId, fresh.keyId);
    expect((await withKey(fresh.key)).status).toBe(401);
  });

  it('revocation in one instance reaches the key cache of another by NOTIFY, long before the cache would expire', async () => {
    const second = await startGateway();
    try {
      const fresh = await merchant.issueKey();
      // Used once there, so the second instance holds the key in its cache (for 60 s without a NOTIFY).
      expect((await http(second.baseUrl, 'GET', '/api/v1/customers', { token: fresh.key })).status).toBe(200);
      await gateway.app.get(ApiKeysService, { strict: false }).revoke(merchant.developerId, fresh.keyId);
      // NOTIFY arrives asynchronously (milliseconds); a loaded machine gets seconds, still far below 60 s.
      const deadline = Date.now() + 10_000;
      let status = 200;
      while (status === 200 && Date.now() < deadline) {
        status = (await http(second.baseUrl, 'GET', '/api/v1/customers', { token: fresh.key })).status;
        if (status === 200) await new Promise((r) => setTimeout(r, 25));
      }
      expect(status).toBe(401);
    } finally {
      await second.close();
    }
  });

  it('refuses a live key until identity verification is complete, then lets it through', async () => {
    const m = await createMerchant(gateway, { identityVerified: false });
    const live = await m.issueKey({ mode: 'live' });
    const before = await withKey(live.key);
    expect(before.status).toBe(403);
    expect(before.body.code).toBe('live_mode_not_enabled');
    await gateway.app.get(DevelopersService, { strict: false }).verifyIdentity(m.developerId);
    // The refused key sits in the key cache; the verification reaches it by NOTIFY (asynchronously,
    // even in this instance), so wait for it — within seconds, far below the cache's 60 s.
    const deadline = Date.now() + 10_000;
    let after = await withKey(live.key);
    while (after.status === 403 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      after = await withKey(live.key);
    }
    expect(after.status).toBe(200);
  });

  it('refuses a test key until the e-mail address is verified', async () => {
    const m = await createMerchant(gateway, { emailVerified: false });
    const res = await withKey(m.key);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('email_not_verified');
  });

  it('records last use without a write per request (flushed in batches on shutdown)', async () => {
    const instance = await startGateway();
    const fresh = await merchant.issueKey();
    const writes = await countRowUpdates('api_keys', fresh.keyId);
    let open = true;
    try {
      const requests = 20;
      for (let i = 0; i < requests; i++) {
        // Each use later than the last, so a write per request would change the row every time.
        instance.clock.advance(1000);
        expect((await http(instance.baseUrl, 'GET', '/api/v1/customers', { token: fresh.key })).status).toBe(200);
      }
      // No write yet — unless the 10-second batch flush happened to tick during a slow run: one, never 20.
      const beforeShutdown = await writes.count();
      expect(beforeShutdown).toBeLessThanOrEqual(1);
      await instance.close();
      open = false;
      const total = await writes.count();
      expect(total).toBeGreaterThanOrEqual(1);
      expect(total).toBeLessThanOrEqual(beforeShutdown + 1);
      expect(total).toBeLessThan(requests);
    } finally {
      if (open) await instance.close();
      await writes.stop();
    }
    const [row] = await query<{ last_used_at: Date | null; last_used_ip: string | null }>(
      'SELECT last_used_at, last_used_ip FROM api_keys WHERE key_hash = $1',
      [createHash('sha256').update(fresh.key).digest('hex')],
    );
    expect(row.last_used_at).not.toBeNull();
    expect(row.last_used_ip).toBe('127.0.0.1');
  });
});

/**
 * Counts the UPDATEs of one row from now on, with a trigger in the test database (its own table
 * and function, dropped by `stop`): what was written, whoever wrote it.
 */
async function countRowUpdates(table: 'api_keys', id: string): Promise<{ count(): Promise<number>; stop(): Promise<void> }> {
  if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error(`not a uuid: ${id}`);
  const name = `e2e_updates_${id.replace(/-/g, '')}`;
  await query(`CREATE TABLE ${name} (at timestamptz NOT NULL DEFAULT clock_timestamp())`);
  await query(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO ${name} DEFAULT VALUES; RETURN NEW; END $$`);
  await query(`CREATE TRIGGER ${name} AFTER UPDATE ON ${table} FOR EACH ROW WHEN (NEW.id = '${id}') EXECUTE FUNCTION ${name}()`);
  return {
    count: async () => (await query<{ n: number }>(`SELECT count(*)::int AS n FROM ${name}`))[0].n,
    stop: async () => {
      await query(`DROP TRIGGER ${name} ON ${table}`);
      await query(`DROP FUNCTION ${name}()`);
      await query(`DROP TABLE ${name}`);
    },
  };
}

describe('scopes', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.close());

  it('a key limited to customers:read can list but not create, and the refusal names the scope', async () => {
    const m = await createMerchant(gateway, { scopes: ['customers:read'] });
    expect((await http(gateway.baseUrl, 'GET', '/api/v1/customers', { token: m.key })).status).toBe(200);
    const res = await http(gateway.baseUrl, 'POST', '/api/v1/customers', { token: m.key, body: { email: 'x@example.com' } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, code: 'insufficient_scope', message: expect.stringContaining('customers:write') });
  });

  it('an empty scope list grants full access', async () => {
    const m = await createMerchant(gateway, { scopes: [] });
    expect((await http(gateway.baseUrl, 'POST', '/api/v1/customers', { token: m.key, body: { email: 'full@example.com' } })).status).toBe(201);
  });
});

describe('IP allowlist', () => {
  let gateway: TestGateway;
  let dualStack: TestGateway;
  let proxied: TestGateway;
  beforeAll(async () => {
    gateway = await startGateway();
    dualStack = await startGateway({}, '::');
    proxied = await startGateway({ TRUSTED_PROXIES: '127.0.0.1' });
  });
  afterAll(async () => {
    await Promise.all([gateway.close(), dualStack.close(), proxied.close()]);
  });

  const allow = (g: TestGateway, m: TestMerchant, cidr: string, keyId?: string) =>
    g.app.get(IpAllowlistService, { strict: false }).add(m.developerId, cidr, keyId);

  it('an empty allowlist permits every address', async () => {
    const m = await createMerchant(gateway);
    expect((await http(gateway.baseUrl, 'GET', '/api/v1/customers', { token: m.key })).status).toBe(200);
  });

  it('refuses an address outside the list with 403 ip_not_allowed, and accepts one inside a CIDR', async () => {
    const m = await createMerchant(gateway);
    await allow(gateway, m, '203.0.113.0/24');
    const refused = await http(gateway.baseUrl, 'GET', '/api/v1/customers', { token: m.key });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ip_not_allowed');
    await allow(gateway, m, '127.0.0.0/8');
    expect((await http(gateway.baseUrl, 'GET', '/api/v1/customers', { token: m.key })).status).toBe(200);
  });

  it('ignores a spoofed X-Forwarded-For when the peer is not a trusted proxy', async () => {
    const m = await createMerchant(gateway);
    await allow(gateway, m, '198.51.100.7');
    const res = await http(gateway.baseUrl, 'GET', '/api/v1/customers', { token: m.key, headers: { 'x-forwarded-for': '198.51.100.7' } });
    expect(res.status).toBe(403);
  });

  it('believes X-Forwarded-For from a configured trusted proxy', async () => {
    const m = await createMerchant(proxied);
    await allow(proxied, m, '198.51.100.7');
    const ok = await http(proxied.baseUrl, 'GET', '/api/v1/customers', { token: m.key, headers: { 'x-forwarded-for': '198.51.100.7' } });
    expect(ok.status).toBe(200);
    const other = await http(proxied.baseUrl, 'GET', '/api/v1/customers', { token: m.key, headers: { 'x-forwarded-for': '198.51.100.8' } });
    expect(other.status).toBe(403);
  });

  it('matches IPv6 clients and treats IPv4-mapped IPv6 as IPv4', async () => {
    const m = await createMerchant(dualStack);
    await allow(dualStack, m, '::1/128');
    const port = new URL(dualStack.baseUrl).port;
    expect((await http(`http://[::1]:${port}`, 'GET', '/api/v1/customers', { token: m.key })).status).toBe(200);
    // Over the dual-stack socket 127.0.0.1 arrives as ::ffff:127.0.0.1 and is matched as IPv4.
    expect((await http(`http://127.0.0.1:${port}`, 'GET', '/api/v1/customers', { token: m.key })).status).toBe(403);
    await allow(dualStack, m, '127.0.0.1');
    expect((await http(`http://127.0.0.1:${port}`, 'GET', '/api/v1/customers', { token: m.key })).status).toBe(200);
  });

  it('applies a per-key entry to that key only', async () => {
    const m = await createMerchant(gateway);
    const other = await m.issueKey();
    await allow(gateway, m, '192.0.2.1', m.keyId);
    expect((await http(gateway.baseUrl, 'GET', '/api/v1/customers', { token: m.key })).status).toBe(403);
    expect((await http(gateway.baseUrl, 'GET', '/api/v1/customers', { token: other.key })).status).toBe(200);
  });
});
