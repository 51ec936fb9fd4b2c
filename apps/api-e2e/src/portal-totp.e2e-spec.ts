import { Encryptor } from '@gateway/platform';
import { authenticator } from 'otplib';
import { query } from './support/db';
import { type TestGateway, startGateway } from './support/gateway';
import { type PortalAccount, type PortalClient, provisionAccount, signedInPlatformUser } from './support/portal-client';

/** The code an authenticator app shows for `secret` at the gateway's (injected) time. */
function codeAt(secret: string, at: Date): string {
  return authenticator.clone({ epoch: at.getTime() }).generate(secret);
}

describe('portal TOTP: enrolment, two-step sign-in, step-up', () => {
  let gateway: TestGateway;
  let admin: PortalClient;

  beforeAll(async () => {
    gateway = await startGateway();
    // A fixed, step-aligned instant: codes and windows below are exact.
    gateway.clock.set(new Date(2_000_000_010 * 1000));
    admin = (await signedInPlatformUser(gateway)).client;
  });
  afterAll(() => gateway.close());

  const now = () => gateway.clock.now();
  const step = (n: number) => gateway.clock.advance(n * 30_000);

  /** Enrols and confirms TOTP for a signed-in client; returns the secret. */
  async function enableTotp(client: PortalClient): Promise<string> {
    const enrolled = await client.post('/api/portal/me/totp/enroll');
    expect(enrolled.status).toBe(200);
    const secret: string = enrolled.body.data.secret;
    const confirmed = await client.post('/api/portal/me/totp/confirm', { body: { code: codeAt(secret, now()) } });
    expect(confirmed.status).toBe(200);
    step(2); // the confirming code's step is spent
    return secret;
  }

  it('enrols: secret and otpauth URL once, stored encrypted, active only after a valid code', async () => {
    const account = await provisionAccount(gateway, admin);
    const enrolled = await account.owner.post('/api/portal/me/totp/enroll');
    expect(enrolled.status).toBe(200);
    const { secret, otpauth_url } = enrolled.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toMatch(new RegExp(`^otpauth://totp/Payment%20Gateway:.+\\?secret=${secret}`));

    const [row] = await query<{ secret_ciphertext: string; confirmed_at: Date | null }>('SELECT secret_ciphertext, confirmed_at FROM user_totp WHERE user_id = $1', [account.ownerId]);
    expect(row.secret_ciphertext).not.toContain(secret);
    expect(row.secret_ciphertext).toMatch(/^v1\.[A-Za-z0-9_-]+\./);
    expect(row.confirmed_at).toBeNull();

    const wrong = await account.owner.post('/api/portal/me/totp/confirm', { body: { code: codeAt(secret, new Date(now().getTime() + 5 * 60_000)) } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('totp_invalid');
    expect((await account.owner.get('/api/portal/me')).body.data.totp_enabled).toBe(false);

    expect((await account.owner.post('/api/portal/me/totp/confirm', { body: { code: codeAt(secret, now()) } })).status).toBe(200);
    expect((await account.owner.get('/api/portal/me')).body.data.totp_enabled).toBe(true);
    expect((await account.owner.post('/api/portal/me/totp/enroll')).status).toBe(409);
  });

  it('signs in in two steps once TOTP is on; the pending session can do nothing else and is replaced', async () => {
    const account = await provisionAccount(gateway, admin);
    const secret = await enableTotp(account.owner);

    const first = await account.owner.login(account.ownerEmail);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ stage: 'totp_required', csrf_token: expect.any(String) });
    const pendingCookie = account.owner.cookies.get('gw_session');
    expect((await account.owner.get('/api/portal/me')).status).toBe(401);
    expect((await account.owner.post('/api/portal/keys', { body: {} })).status).toBe(401);

    const wrong = await account.owner.loginTotp('000000' === codeAt(secret, now()) ? '111111' : '000000');
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('totp_invalid');

    const second = await account.owner.loginTotp(codeAt(secret, now()));
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ stage: 'active', user: { totp_enabled: true } });
    expect(account.owner.cookies.get('gw_session')).not.toBe(pendingCookie);
    expect((await account.owner.get('/api/portal/me')).status).toBe(200);
  });

  it('a pending sign-in expires after 5 minutes', async () => {
    const account = await provisionAccount(gateway, admin);
    const secret = await enableTotp(account.owner);
    await account.owner.login(account.ownerEmail);
    step(11);
    const late = await account.owner.loginTotp(codeAt(secret, now()));
    expect(late.status).toBe(401);
    expect(late.body.code).toBe('authentication_failed');
  });

  it('reproduces the RFC 6238 test vectors end to end (seed "12345678901234567890", 6 digits)', async () => {
    const account = await provisionAccount(gateway, admin);
    await enableTotp(account.owner);
    // Give the user the RFC's seed, sealed by the gateway's own encryptor.
    const rfcSeed = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    const sealed = gateway.app.get(Encryptor, { strict: false }).encrypt(rfcSeed, `user_totp:${account.ownerId}`);
    await query('UPDATE user_totp SET secret_ciphertext = $1, last_used_step = NULL WHERE user_id = $2', [sealed, account.ownerId]);

    const vectors: Array<[number, string]> = [
      [1111111109, '081804'],
      [1234567890, '005924'],
      [2000000000, '279037'],
    ];
    try {
      for (const [seconds, code] of vectors) {
        gateway.clock.set(new Date(seconds * 1000));
        const login = await account.owner.login(account.ownerEmail);
        expect(login.body.data.stage).toBe('totp_required');
        const verified = await account.owner.loginTotp(code);
        expect(verified.status).toBe(200);
      }
    } finally {
      gateway.clock.set(new Date(2_000_001_000 * 1000));
    }
  });

  it('accepts a code one step old or ahead, refuses two steps, and never accepts a code twice', async () => {
    const account = await provisionAccount(gateway, admin);
    const secret = await enableTotp(account.owner);
    const at = (steps: number) => codeAt(secret, new Date(now().getTime() + steps * 30_000));

    await account.owner.login(account.ownerEmail);
    expect((await account.owner.loginTotp(at(-2))).status).toBe(401);
    expect((await account.owner.loginTotp(at(-1))).status).toBe(200);

    await account.owner.login(account.ownerEmail);
    const replay = await account.owner.loginTotp(at(-1));
    expect(replay.status).toBe(401);
    expect(replay.body.message).toMatch(/already been used/);
    expect((await account.owner.loginTotp(at(2))).status).toBe(401);
    expect((await account.owner.loginTotp(at(1))).status).toBe(200);

    // The step of an accepted code, and every earlier one, is spent.
    await account.owner.login(account.ownerEmail);
    expect((await account.owner.loginTotp(at(0))).status).toBe(401);
  });

  it('locks TOTP after 5 consecutive wrong codes, even for a right one, until the lockout period ends', async () => {
    const account = await provisionAccount(gateway, admin);
    const secret = await enableTotp(account.owner);
    const wrong = () => ('000000' === codeAt(secret, now()) ? '111111' : '000000');

    await account.owner.login(account.ownerEmail);
    for (let i = 0; i < 5; i++) expect((await account.owner.loginTotp(wrong())).status).toBe(401);
    const locked = await account.owner.loginTotp(codeAt(secret, now()));
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('too_many_attempts');

    gateway.clock.advance(15 * 60_000 + 1);
    await account.owner.login(account.ownerEmail);
    expect((await account.owner.loginTotp(codeAt(secret, now()))).status).toBe(200);
  });

  describe('live mode', () => {
    let verified: PortalAccount;
    let secret: string;

    beforeAll(async () => {
      verified = await provisionAccount(gateway, admin, { identityVerified: true });
    });

    it('refuses the switch without TOTP enabled', async () => {
      const result = await verified.owner.put('/api/portal/me/mode', { body: { mode: 'live' } });
      expect(result.status).toBe(403);
      expect(result.body.code).toBe('totp_required');
    });

    it('needs the code in X-TOTP-Code: missing 403, wrong 401, right 200; back to test needs none', async () => {
      secret = await enableTotp(verified.owner);
      const missing = await verified.owner.put('/api/portal/me/mode', { body: { mode: 'live' } });
      expect(missing.status).toBe(403);
      expect(missing.body.code).toBe('totp_required');
      const wrong = await verified.owner.put('/api/portal/me/mode', { body: { mode: 'live' }, totp: '000000' === codeAt(secret, now()) ? '111111' : '000000' });
      expect(wrong.status).toBe(401);

      const live = await verified.owner.put('/api/portal/me/mode', { body: { mode: 'live' }, totp: codeAt(secret, now()) });
      expect(live.status).toBe(200);
      expect((await verified.owner.get('/api/portal/me')).body.data.session.mode).toBe('live');

      expect((await verified.owner.put('/api/portal/me/mode', { body: { mode: 'test' } })).status).toBe(200);
      expect((await verified.owner.get('/api/portal/me')).body.data.session.mode).toBe('test');
    });

    it('refuses live mode before identity verification, even with a valid code', async () => {
      const unverified = await provisionAccount(gateway, admin);
      const own = await enableTotp(unverified.owner);
      const result = await unverified.owner.put('/api/portal/me/mode', { body: { mode: 'live' }, totp: codeAt(own, now()) });
      expect(result.status).toBe(403);
      expect(result.body.code).toBe('live_mode_not_enabled');
    });

    it('in live mode, issuing and rotating keys need a code; test-mode keys do not', async () => {
      step(1);
      expect((await verified.owner.post('/api/portal/keys', { body: { name: 'test key' } })).status).toBe(201);
      expect((await verified.owner.put('/api/portal/me/mode', { body: { mode: 'live' }, totp: codeAt(secret, now()) })).status).toBe(200);

      const noCode = await verified.owner.post('/api/portal/keys', { body: { name: 'live key' } });
      expect(noCode.status).toBe(403);
      expect(noCode.body.code).toBe('totp_required');
      step(1);
      const issued = await verified.owner.post('/api/portal/keys', { body: { name: 'live key' }, totp: codeAt(secret, now()) });
      expect(issued.status).toBe(201);
      expect(issued.body.data.secret).toMatch(/^sk_live_/);
      expect((await verified.owner.get('/api/portal/keys')).body.data.map((k: { mode: string }) => k.mode)).toEqual(['live']);

      const rotateNoCode = await verified.owner.post(`/api/portal/keys/${issued.body.data.key.id}/rotate`, { body: {} });
      expect(rotateNoCode.status).toBe(403);
      step(1);
      const rotated = await verified.owner.post(`/api/portal/keys/${issued.body.data.key.id}/rotate`, { body: {}, totp: codeAt(secret, now()) });
      expect(rotated.status).toBe(201);
      expect(rotated.body.data.secret).toMatch(/^sk_live_/);
    });
  });
});
