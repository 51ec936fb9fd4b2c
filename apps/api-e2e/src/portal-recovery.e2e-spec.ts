import { randomBytes } from 'node:crypto';
import { query } from './support/db';
import { type TestGateway, startGateway } from './support/gateway';
import { http } from './support/http';
import { mailedToken, PORTAL_PASSWORD, PortalClient, provisionAccount, signedInPlatformUser, uniqueEmail } from './support/portal-client';
import { runEntry } from './support/processes';

describe('portal e-mail verification, password reset and invitations: single-use, expiring links', () => {
  let gateway: TestGateway;
  let admin: PortalClient;

  beforeAll(async () => {
    gateway = await startGateway();
  });
  // Tests move the clock by hours: each starts with a fresh administrator session.
  beforeEach(async () => {
    admin = (await signedInPlatformUser(gateway)).client;
  });
  afterAll(() => gateway.close());

  async function anonymous(): Promise<PortalClient> {
    const client = new PortalClient(gateway.baseUrl);
    await client.fetchCsrf();
    return client;
  }

  describe('e-mail verification', () => {
    it("verifies the owner's address and with it the account's, once", async () => {
      const account = await provisionAccount(gateway, admin);
      await query('UPDATE users SET email_verified_at = NULL WHERE id = $1', [account.ownerId]);
      await query('UPDATE developers SET email_verified_at = NULL WHERE id = $1', [account.developerId]);
      expect((await account.owner.get('/api/portal/me')).body.data).toMatchObject({ email_verified: false, account: { email_verified: false } });

      expect((await account.owner.post('/api/portal/auth/email-verification')).status).toBe(202);
      const token = await mailedToken(gateway.baseUrl, account.ownerEmail);
      const stored = await query<{ token_hash: string }>("SELECT token_hash FROM portal_tokens WHERE purpose = 'email_verification'");
      expect(JSON.stringify(stored)).not.toContain(token);

      const visitor = await anonymous();
      expect((await visitor.post('/api/portal/auth/email-verification/confirm', { body: { token } })).status).toBe(200);
      expect((await account.owner.get('/api/portal/me')).body.data).toMatchObject({ email_verified: true, account: { email_verified: true } });

      const again = await visitor.post('/api/portal/auth/email-verification/confirm', { body: { token } });
      expect(again.status).toBe(400);
      expect(again.body.code).toBe('invalid_token');
    });

    it('refuses a verification link after 24 hours', async () => {
      const account = await provisionAccount(gateway, admin);
      await query('UPDATE users SET email_verified_at = NULL WHERE id = $1', [account.ownerId]);
      await account.owner.post('/api/portal/auth/email-verification');
      const token = await mailedToken(gateway.baseUrl, account.ownerEmail);
      gateway.clock.advance(24 * 3_600_000 + 1);
      const late = await (await anonymous()).post('/api/portal/auth/email-verification/confirm', { body: { token } });
      expect(late.status).toBe(400);
      expect(late.body.code).toBe('invalid_token');
    });
  });

  describe('password reset', () => {
    it('answers known and unknown addresses alike and mails only the known one', async () => {
      const account = await provisionAccount(gateway, admin);
      const client = await anonymous();
      const known = await client.post('/api/portal/auth/password-reset', { body: { email: account.ownerEmail } });
      const unknownEmail = uniqueEmail('unknown');
      const unknown = await client.post('/api/portal/auth/password-reset', { body: { email: unknownEmail } });
      expect(known.status).toBe(202);
      expect(unknown.status).toBe(202);
      expect(unknown.body).toEqual(known.body);
      expect((await http(gateway.baseUrl, 'GET', `/api/portal/dev/mailbox?to=${unknownEmail}`)).body.data).toEqual([]);
    });

    it('sets the new password once, signs out every session, and the old password stops working', async () => {
      const account = await provisionAccount(gateway, admin);
      const client = await anonymous();
      await client.post('/api/portal/auth/password-reset', { body: { email: account.ownerEmail } });
      const token = await mailedToken(gateway.baseUrl, account.ownerEmail);

      const weak = await client.post('/api/portal/auth/password-reset/confirm', { body: { token, password: 'short' } });
      expect(weak.status).toBe(400);
      expect(weak.body.errors.password).toBeDefined();

      const done = await client.post('/api/portal/auth/password-reset/confirm', { body: { token, password: 'a completely new passphrase' } });
      expect(done.status).toBe(200);
      expect((await account.owner.get('/api/portal/me')).status).toBe(401);
      expect((await new PortalClient(gateway.baseUrl).login(account.ownerEmail, PORTAL_PASSWORD)).status).toBe(401);
      expect((await new PortalClient(gateway.baseUrl).login(account.ownerEmail, 'a completely new passphrase')).status).toBe(200);

      const reuse = await client.post('/api/portal/auth/password-reset/confirm', { body: { token, password: 'yet another passphrase' } });
      expect(reuse.status).toBe(400);
      expect(reuse.body.code).toBe('invalid_token');
    });

    it('refuses a reset link after an hour', async () => {
      const account = await provisionAccount(gateway, admin);
      const client = await anonymous();
      await client.post('/api/portal/auth/password-reset', { body: { email: account.ownerEmail } });
      const token = await mailedToken(gateway.baseUrl, account.ownerEmail);
      gateway.clock.advance(60 * 60_000 + 1);
      const late = await client.post('/api/portal/auth/password-reset/confirm', { body: { token, password: 'a completely new passphrase' } });
      expect(late.status).toBe(400);
      expect(late.body.code).toBe('invalid_token');
    });

    it('needs the CSRF token like every state-changing request', async () => {
      const refused = await new PortalClient(gateway.baseUrl).post('/api/portal/auth/password-reset', { body: { email: 'x@example.com' } });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('csrf_token_invalid');
    });
  });

  describe('invitations', () => {
    it('an invitation link works once and cannot be forged', async () => {
      const account = await provisionAccount(gateway, admin);
      const email = uniqueEmail('invitee');
      expect((await account.owner.post('/api/portal/team/invitations', { body: { email, role: 'developer' } })).status).toBe(201);
      const token = await mailedToken(gateway.baseUrl, email);
      const client = await anonymous();
      const forged = await client.post('/api/portal/auth/invitations/accept', { body: { token: randomBytes(32).toString('base64url'), name: 'X', password: PORTAL_PASSWORD } });
      expect(forged.status).toBe(400);
      expect(forged.body.code).toBe('invalid_token');
      expect((await client.post('/api/portal/auth/invitations/accept', { body: { token, name: 'Dev', password: PORTAL_PASSWORD } })).status).toBe(201);
      const twice = await client.post('/api/portal/auth/invitations/accept', { body: { token, name: 'Dev', password: PORTAL_PASSWORD } });
      expect(twice.status).toBe(400);
      expect((await new PortalClient(gateway.baseUrl).login(email)).body.data.user.account.role).toBe('developer');
    });
  });

  it('hides the dev mailbox from clients not on this machine (a remote client behind a trusted proxy)', async () => {
    const proxied = await startGateway({ TRUSTED_PROXIES: '127.0.0.1' });
    try {
      const local = await http(proxied.baseUrl, 'GET', '/api/portal/dev/mailbox', { headers: { 'x-forwarded-for': '127.0.0.1' } });
      expect(local.status).toBe(200);
      const remote = await http(proxied.baseUrl, 'GET', '/api/portal/dev/mailbox', { headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(remote.status).toBe(404);
      expect(remote.body.code).toBe('not_found');
    } finally {
      await proxied.close();
    }
  });

  describe('in production', () => {
    it('hides the dev mailbox', async () => {
      const production = await startGateway({ NODE_ENV: 'production', ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}` });
      try {
        const result = await http(production.baseUrl, 'GET', '/api/portal/dev/mailbox');
        expect(result.status).toBe(404);
        expect(result.body.code).toBe('not_found');
      } finally {
        await production.close();
      }
    });

    it('refuses to start without ENCRYPTION_KEYS', async () => {
      const result = await runEntry('apps/api/src/main.ts', [], { DATABASE_URL: process.env.TEST_DATABASE_URL, NODE_ENV: 'production' });
      expect(result.code).toBe(78);
      expect(result.stderr.trim()).toBe('Configuration error: ENCRYPTION_KEYS is missing (required when NODE_ENV=production)');
    });
  });
});
