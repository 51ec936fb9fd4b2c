import { UsersService } from '@gateway/domain/identity';
import { type TestGateway, startGateway } from './support/gateway';
import type { HttpResult } from './support/http';
import { PORTAL_PASSWORD, PortalClient, uniqueEmail } from './support/portal-client';

/** What an observer of one sign-in sees: status, envelope and whether a session was set. */
function outcome(result: HttpResult): { status: number; body: unknown; session: boolean } {
  return { status: result.status, body: result.body, session: result.headers.getSetCookie().some((c) => c.startsWith('gw_session=')) };
}

/** A fresh pre-login client (CSRF token and cookie) posting a raw sign-in body. */
async function signIn(gateway: TestGateway, body: unknown, options: { path?: string; ip?: string } = {}): Promise<HttpResult> {
  const client = new PortalClient(gateway.baseUrl);
  await client.fetchCsrf();
  return client.post(options.path ?? '/api/portal/auth/login', { body, headers: options.ip ? { 'x-forwarded-for': options.ip } : {} });
}

async function staffUser(gateway: TestGateway): Promise<string> {
  const email = uniqueEmail('abuse');
  await gateway.app.get(UsersService, { strict: false }).createPlatformUser({ email, name: 'Abuse', password: PORTAL_PASSWORD, platformRole: 'admin' });
  return email;
}

describe('portal sign-in: nothing to learn about accounts', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.close());

  it.each([
    ['a number for the e-mail', { email: 12345, password: PORTAL_PASSWORD }, 'email'],
    ['an object for the e-mail', { email: { $ne: '' }, password: PORTAL_PASSWORD }, 'email'],
    ['a number for the password', { email: 'someone@example.com', password: 123456789012 }, 'password'],
    ['an object for the password', { email: 'someone@example.com', password: { length: 1 } }, 'password'],
    ['an array for the password', { email: 'someone@example.com', password: ['correct horse battery staple'] }, 'password'],
  ])('refuses %s as a validation error, never a 500', async (_case, body, field) => {
    const result = await signIn(gateway, body);
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ success: false, code: 'validation_error', errors: { [field]: expect.any(Array) } });
  });

  it('answers a known and an unknown address identically at every step, non-string passwords included, and locks both alike', async () => {
    const known = await staffUser(gateway);
    const unknown = uniqueEmail('nobody');
    const passwords: unknown[] = [123456789012, 'wrong password 1', { not: 'a string' }, 'wrong password 2', 'wrong password 3', 'wrong password 4', 'wrong password 5', PORTAL_PASSWORD];
    const seen: Record<string, Array<ReturnType<typeof outcome>>> = { known: [], unknown: [] };
    for (const password of passwords) {
      seen.known.push(outcome(await signIn(gateway, { email: known, password })));
      seen.unknown.push(outcome(await signIn(gateway, { email: unknown, password })));
    }
    expect(seen.unknown).toEqual(seen.known);
    expect(seen.known.map((o) => o.status)).toEqual([400, 401, 400, 401, 401, 401, 401, 429]);
    expect(seen.known[1].body).toEqual({ success: false, code: 'authentication_failed', message: 'Invalid e-mail or password.' });
    expect(seen.known[7].body).toMatchObject({ code: 'too_many_attempts' });
  });

  describe('credentials in the URL', () => {
    it('refuses them even when they are the only ones sent, without checking (or counting) the password', async () => {
      const email = await staffUser(gateway);
      for (let i = 0; i < 6; i++) {
        const result = await signIn(gateway, {}, { path: `/api/portal/auth/login?email=${encodeURIComponent(email)}&password=wrong-password-${i}` });
        expect(result.status).toBe(400);
        expect(result.body).toMatchObject({ code: 'validation_error', errors: { query: [expect.stringContaining('JSON body')] } });
      }
      // Six wrong passwords in URLs locked nothing: none was checked.
      expect((await signIn(gateway, { email, password: PORTAL_PASSWORD })).status).toBe(200);
    });

    it('refuses a sign-in whose URL repeats the credentials, however right the body is', async () => {
      const email = await staffUser(gateway);
      const result = await signIn(gateway, { email, password: PORTAL_PASSWORD }, { path: `/api/portal/auth/login?password=${encodeURIComponent(PORTAL_PASSWORD)}` });
      expect(outcome(result)).toMatchObject({ status: 400, session: false, body: { code: 'validation_error' } });
    });
  });
});

describe('portal sign-in under a flood', () => {
  it('gives each client IP 10 attempts a minute across the credential routes, then 429 with Retry-After; other IPs sign in', async () => {
    const gateway = await startGateway({ RATE_LIMIT_PORTAL_AUTH_PER_MINUTE: '10', TRUSTED_PROXIES: '127.0.0.1' });
    try {
      const email = await staffUser(gateway);
      const flooder = '198.51.100.20';
      for (let i = 0; i < 10; i++) {
        // A new address each time, so the per-address lockout (5 failures) never answers first.
        const attempt = await signIn(gateway, { email: uniqueEmail('guess'), password: 'wrong password' }, { ip: flooder });
        expect(attempt.status).toBe(401);
        expect(Number(attempt.headers.get('x-ratelimit-remaining'))).toBe(9 - i);
      }

      const refused = await signIn(gateway, { email, password: PORTAL_PASSWORD }, { ip: flooder });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ success: false, code: 'rate_limit_exceeded', message: expect.stringContaining('per minute'), retry_after: expect.any(Number) });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBe(refused.body.retry_after);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);

      // One count for every route where a password, code or link token is guessed.
      const token = 'x'.repeat(43);
      const routes: Array<[string, unknown]> = [
        ['/api/portal/auth/login/totp', { code: '123456' }],
        ['/api/portal/auth/password-reset', { email }],
        ['/api/portal/auth/password-reset/confirm', { token, password: PORTAL_PASSWORD }],
        ['/api/portal/auth/invitations/accept', { token, name: 'Mallory', password: PORTAL_PASSWORD }],
        ['/api/portal/me/totp/confirm', { code: '123456' }],
      ];
      for (const [path, body] of routes) {
        const result = await signIn(gateway, body, { path, ip: flooder });
        expect([path, result.status, result.body.code]).toEqual([path, 429, 'rate_limit_exceeded']);
      }

      const elsewhere = await signIn(gateway, { email, password: PORTAL_PASSWORD }, { ip: '198.51.100.21' });
      expect(elsewhere.status).toBe(200);
      // Routes without a credential to guess stay open to the flooding address.
      expect((await new PortalClient(gateway.baseUrl).request('GET', '/api/portal/auth/csrf', { headers: { 'x-forwarded-for': flooder } })).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });

  it('answers 503 at once, for known and unknown addresses alike, when the password-hashing queue is full', async () => {
    // The default cost (a quarter of a second a hash here), not the tests' cheap one: the other
    // sign-ins must arrive while the first hash runs.
    const gateway = await startGateway({
      PORTAL_PASSWORD_HASH_CONCURRENCY: '1',
      PORTAL_PASSWORD_HASH_QUEUE: '0',
      PORTAL_PASSWORD_HASH_MEMORY_KIB: '65536',
      PORTAL_PASSWORD_HASH_ITERATIONS: '3',
      PORTAL_PASSWORD_HASH_PARALLELISM: '4',
    });
    try {
      const known = await staffUser(gateway);
      const clients = await Promise.all(
        Array.from({ length: 12 }, async () => {
          const client = new PortalClient(gateway.baseUrl);
          await client.fetchCsrf();
          return client;
        }),
      );
      // One hash runs; the others arrive while it does, find no room to wait, and are refused.
      const results = await Promise.all(clients.map((client, i) => client.post('/api/portal/auth/login', { body: { email: i % 2 ? known : uniqueEmail('ghost'), password: 'wrong password' } })));
      const statuses = results.map((r) => r.status);
      expect(statuses.every((s) => s === 401 || s === 503)).toBe(true);
      expect(statuses).toContain(401);
      const busy = results.filter((r) => r.status === 503);
      expect(busy.length).toBeGreaterThan(0);
      for (const result of busy) expect(result.body).toEqual({ success: false, code: 'service_unavailable', message: expect.stringContaining('Try again') });
      // The queue empties as soon as the work is done: the next sign-in is checked again.
      expect((await signIn(gateway, { email: known, password: PORTAL_PASSWORD })).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });
});
