import { createHash } from 'node:crypto';
import { query } from './support/db';
import { type TestGateway, startGateway } from './support/gateway';
import { http } from './support/http';
import { PORTAL_PASSWORD, PortalClient, signedInPlatformUser, uniqueEmail } from './support/portal-client';
import { UsersService } from '@gateway/domain/identity';

describe('portal sign-in: sessions, cookies and CSRF', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.close());

  async function staffUser(): Promise<string> {
    const email = uniqueEmail('auth');
    await gateway.app.get(UsersService, { strict: false }).createPlatformUser({ email, name: 'Auth', password: PORTAL_PASSWORD, platformRole: 'admin' });
    return email;
  }

  it('signs in with an httpOnly, SameSite=Lax session cookie scoped to the portal API and stores only its hash', async () => {
    const email = await staffUser();
    const client = new PortalClient(gateway.baseUrl);
    const login = await client.login(email);
    expect(login.status).toBe(200);
    expect(login.body.data).toMatchObject({ stage: 'active', csrf_token: expect.any(String), user: { email, platform_role: 'admin', account: null } });

    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('gw_session='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/api\/portal/);
    expect(cookie).not.toMatch(/Secure/);

    const token = client.cookies.get('gw_session') as string;
    const stored = await query<{ token_hash: string }>('SELECT token_hash FROM portal_sessions');
    expect(stored.map((s) => s.token_hash)).toContain(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(token);

    const me = await client.get('/api/portal/me');
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ email, totp_enabled: false, session: { mode: 'test' } });
  });

  it('marks the cookie Secure when the gateway is served over HTTPS', async () => {
    const secure = await startGateway({ PUBLIC_BASE_URL: 'https://gateway.example.com' });
    try {
      const email = await staffUser();
      const client = new PortalClient(secure.baseUrl);
      const login = await client.login(email);
      expect(login.headers.getSetCookie().find((c) => c.startsWith('gw_session='))).toMatch(/; Secure/);
    } finally {
      await secure.close();
    }
  });

  it('hashes a password again at the cost the operator set since, when its owner signs in, keeping the sessions', async () => {
    const email = await staffUser();
    const stored = async () => (await query<{ password_hash: string; password_changed_at: Date }>('SELECT password_hash, password_changed_at FROM users WHERE email = $1', [email]))[0];
    const signedIn = new PortalClient(gateway.baseUrl);
    expect((await signedIn.login(email)).status).toBe(200);
    const before = await stored();
    // The tests' cost (testConfig): OWASP's 7 MiB with 5 passes.
    expect(before.password_hash).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);

    const raised = await startGateway({ PORTAL_PASSWORD_HASH_MEMORY_KIB: '19456', PORTAL_PASSWORD_HASH_ITERATIONS: '2', PORTAL_PASSWORD_HASH_PARALLELISM: '1' });
    try {
      expect((await new PortalClient(raised.baseUrl).login(email, 'not the password at all')).status).toBe(401);
      expect(await stored()).toEqual(before);

      expect((await new PortalClient(raised.baseUrl).login(email)).status).toBe(200);
      const after = await stored();
      expect(after.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(after.password_changed_at).toEqual(before.password_changed_at);
      // The password did not change: a session made before stays signed in.
      expect((await signedIn.get('/api/portal/me')).status).toBe(200);
      // Once at the configured cost, a sign-in leaves the hash alone.
      expect((await new PortalClient(raised.baseUrl).login(email)).status).toBe(200);
      expect((await stored()).password_hash).toBe(after.password_hash);
    } finally {
      await raised.close();
    }
  });

  it('answers an unknown e-mail and a wrong password with the same 401 body', async () => {
    const email = await staffUser();
    const unknown = await new PortalClient(gateway.baseUrl).login(uniqueEmail('nobody'), PORTAL_PASSWORD);
    const wrong = await new PortalClient(gateway.baseUrl).login(email, 'not the password at all');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual({ success: false, code: 'authentication_failed', message: 'Invalid e-mail or password.' });
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.headers.getSetCookie().some((c) => c.startsWith('gw_session='))).toBe(false);
  });

  it('locks an address after 5 failures whether or not it exists, the right password included', async () => {
    const email = await staffUser();
    const ghost = uniqueEmail('ghost');
    for (const address of [email, ghost]) {
      const client = new PortalClient(gateway.baseUrl);
      for (let i = 0; i < 5; i++) expect((await client.login(address, `wrong password ${i}`)).status).toBe(401);
      const locked = await client.login(address, PORTAL_PASSWORD);
      expect(locked.status).toBe(429);
      expect(locked.body.code).toBe('too_many_attempts');
    }
    gateway.clock.advance(15 * 60_000 + 1);
    expect((await new PortalClient(gateway.baseUrl).login(email)).status).toBe(200);
  });

  it('refuses a missing field as a validation error', async () => {
    const client = new PortalClient(gateway.baseUrl);
    await client.fetchCsrf();
    const result = await client.post('/api/portal/auth/login', { body: { email: 'x@example.com' } });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('validation_error');
  });

  it('logs out: the session row is deleted, the cookie cleared and the old cookie refused', async () => {
    const email = await staffUser();
    const client = new PortalClient(gateway.baseUrl);
    await client.login(email);
    const token = client.cookies.get('gw_session') as string;
    const logout = await client.post('/api/portal/auth/logout');
    expect(logout.status).toBe(204);
    expect(client.cookies.has('gw_session')).toBe(false);
    const rows = await query('SELECT 1 FROM portal_sessions WHERE token_hash = $1', [createHash('sha256').update(token).digest('hex')]);
    expect(rows).toHaveLength(0);
    const replay = await http(gateway.baseUrl, 'GET', '/api/portal/me', { headers: { cookie: `gw_session=${token}` } });
    expect(replay.status).toBe(401);
  });

  it('expires a session after 30 idle minutes', async () => {
    const { client } = await signedInPlatformUser(gateway);
    gateway.clock.advance(29 * 60_000);
    expect((await client.get('/api/portal/me')).status).toBe(200);
    gateway.clock.advance(30 * 60_000 + 1);
    const expired = await client.get('/api/portal/me');
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('authentication_failed');
  });

  it('expires a busy session at its 12-hour absolute limit', async () => {
    const { client } = await signedInPlatformUser(gateway);
    for (let i = 0; i < 35; i++) {
      gateway.clock.advance(20 * 60_000);
      expect((await client.get('/api/portal/me')).status).toBe(200);
    }
    // 35 × 20 minutes = 11 h 40 min of activity; one minute past 12 h is well within the idle limit.
    gateway.clock.advance(12 * 60 * 60_000 - 35 * 20 * 60_000 + 60_000);
    expect((await client.get('/api/portal/me')).status).toBe(401);
  });

  describe('CSRF', () => {
    it('refuses a login without the token or with a wrong one (403), and one whose header does not match the cookie', async () => {
      const email = await staffUser();
      const client = new PortalClient(gateway.baseUrl);
      const missing = await client.post('/api/portal/auth/login', { body: { email, password: PORTAL_PASSWORD } });
      expect(missing.status).toBe(403);
      expect(missing.body.code).toBe('csrf_token_invalid');

      await client.fetchCsrf();
      const wrong = await client.post('/api/portal/auth/login', { body: { email, password: PORTAL_PASSWORD }, headers: { 'x-csrf-token': 'guessed' }, csrf: false });
      expect(wrong.status).toBe(403);

      // A token without its cookie (what a cross-site page could at best replay) is worthless.
      const token = client.csrfToken as string;
      const noCookie = await http(gateway.baseUrl, 'POST', '/api/portal/auth/login', { body: { email, password: PORTAL_PASSWORD }, headers: { 'x-csrf-token': token } });
      expect(noCookie.status).toBe(403);
    });

    it('requires the session token on state-changing requests and not on reads', async () => {
      const { client } = await signedInPlatformUser(gateway);
      expect((await client.get('/api/portal/me', { csrf: false })).status).toBe(200);
      const missing = await client.post('/api/portal/me/totp/enroll', { csrf: false });
      expect(missing.status).toBe(403);
      expect(missing.body.code).toBe('csrf_token_invalid');
      const wrong = await client.post('/api/portal/me/totp/enroll', { csrf: false, headers: { 'x-csrf-token': 'x'.repeat(43) } });
      expect(wrong.status).toBe(403);

      // The pre-login double-submit token is no longer accepted once signed in.
      const preLogin = client.cookies.get('gw_csrf') as string;
      const stale = await client.post('/api/portal/me/totp/enroll', { csrf: false, headers: { 'x-csrf-token': preLogin } });
      expect(stale.status).toBe(403);

      const fromEndpoint = await client.get('/api/portal/auth/csrf');
      expect(fromEndpoint.body.data.csrf_token).toBe(client.csrfToken);
      expect((await client.post('/api/portal/me/totp/enroll')).status).toBe(200);
    });

    it('refuses logout without the token', async () => {
      const { client } = await signedInPlatformUser(gateway);
      expect((await client.post('/api/portal/auth/logout', { csrf: false })).status).toBe(403);
      expect((await client.get('/api/portal/me')).status).toBe(200);
    });
  });

  it('documents every portal route in OpenAPI under the Portal tag, with the session cookie scheme', async () => {
    const doc = (await http(gateway.baseUrl, 'GET', '/api/docs.json')).body;
    const portalPaths = Object.keys(doc.paths).filter((p) => p.startsWith('/api/portal/'));
    expect(portalPaths).toEqual(expect.arrayContaining(['/api/portal/auth/login', '/api/portal/me/totp/enroll', '/api/portal/keys/{id}/rotate', '/api/portal/team/members/{userId}/role']));
    for (const path of portalPaths) {
      for (const operation of Object.values(doc.paths[path]) as Array<{ tags: string[] }>) expect(operation.tags).toEqual(['Portal']);
    }
    expect(doc.components.securitySchemes.gw_session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'gw_session' });
    expect(doc.paths['/api/portal/keys/{id}/rotate'].post.parameters.map((p: { name: string }) => p.name)).toContain('X-TOTP-Code');
  });

  it('serves the portal under /api/portal only, outside the merchant API and its keys', async () => {
    expect((await http(gateway.baseUrl, 'GET', '/api/v1/api/portal/me')).status).toBe(404);
    const anonymous = await http(gateway.baseUrl, 'GET', '/api/portal/me');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ success: false, code: 'authentication_failed', message: 'Sign in to the portal first.' });
  });
});
