import { authenticator } from 'otplib';
import { type TestGateway, startGateway } from './support/gateway';
import { http, type HttpResult } from './support/http';
import { newIdempotencyKey } from './support/idempotency-keys';
import { createMerchant, type TestMerchant } from './support/merchants';
import { type PortalAccount, PortalClient, provisionAccount, signedInPlatformUser } from './support/portal-client';

/** A public address literal: registration accepts it without a DNS lookup, and nothing connects to it here. */
const RECEIVER = 'https://93.184.215.14/hooks';

function expectNoStore(result: HttpResult, status: number): void {
  expect({ status: result.status, cacheControl: result.headers.get('cache-control') }).toEqual({ status, cacheControl: 'no-store' });
}

/** Every response that shows a secret once tells every cache (browser, proxy, CDN) not to keep it. */
describe('responses carrying a secret: Cache-Control: no-store', () => {
  let gateway: TestGateway;
  let account: PortalAccount;
  let merchant: TestMerchant;

  beforeAll(async () => {
    gateway = await startGateway();
    // A step-aligned instant, so the TOTP codes below are exact.
    gateway.clock.set(new Date(2_000_000_010 * 1000));
    account = await provisionAccount(gateway, (await signedInPlatformUser(gateway)).client);
    merchant = await createMerchant(gateway);
  });
  afterAll(() => gateway.close());

  const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    http(gateway.baseUrl, method, `/api/v1${path}`, { token: merchant.key, body, headers });

  it('portal: a new API key and a rotated one', async () => {
    const created = await account.owner.post('/api/portal/keys', { body: { name: 'ci' } });
    expectNoStore(created, 201);
    expect(created.body.data.secret).toMatch(/^sk_test_/);
    const rotated = await account.owner.post(`/api/portal/keys/${created.body.data.key.id}/rotate`, { body: {} });
    expectNoStore(rotated, 201);
    expect(rotated.body.data.secret).toMatch(/^sk_test_/);
  });

  it('API: a new webhook endpoint, its idempotent replay, and a secret rotation', async () => {
    const headers = { 'idempotency-key': newIdempotencyKey('no-store') };
    const body = { url: RECEIVER, events: ['customer.created'], webhook_version: 'v1' };
    const created = await api('POST', '/webhooks', body, headers);
    expectNoStore(created, 201);
    expect(created.body.data.secret).toMatch(/^whsec_/);

    const replayed = await api('POST', '/webhooks', body, headers);
    expectNoStore(replayed, 201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');

    const rotated = await api('PATCH', `/webhooks/${created.body.data.id}`, { rotate_secret: true });
    expectNoStore(rotated, 200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(created.body.data.secret);
  });

  it('portal: a new webhook endpoint and a secret rotation', async () => {
    const created = await account.owner.post('/api/portal/webhooks', { body: { url: RECEIVER, events: ['customer.created'], webhook_version: 'v2' } });
    expectNoStore(created, 201);
    expect(created.body.data.secret).toMatch(/^whsec_/);
    const rotated = await account.owner.request('PATCH', `/api/portal/webhooks/${created.body.data.id}`, { body: { rotate_secret: true } });
    expectNoStore(rotated, 200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(created.body.data.secret);
  });

  it('portal: TOTP enrolment, and the session tokens of sign-in (CSRF token, both steps)', async () => {
    const member = await account.addMember('developer');
    const enrolled = await member.client.post('/api/portal/me/totp/enroll');
    expectNoStore(enrolled, 200);
    const secret: string = enrolled.body.data.secret;
    const codeAt = (at: Date) => authenticator.clone({ epoch: at.getTime() }).generate(secret);
    expect((await member.client.post('/api/portal/me/totp/confirm', { body: { code: codeAt(gateway.clock.now()) } })).status).toBe(200);
    gateway.clock.advance(60_000); // the confirming code's step is spent

    const fresh = new PortalClient(gateway.baseUrl);
    expectNoStore(await fresh.get('/api/portal/auth/csrf'), 200);
    const password = await fresh.login(member.email);
    expectNoStore(password, 200);
    expect(password.body.data.stage).toBe('totp_required');
    const second = await fresh.loginTotp(codeAt(gateway.clock.now()));
    expectNoStore(second, 200);
    expect(second.body.data.stage).toBe('active');
  });

  it('development mailbox: the kept e-mails hold link tokens', async () => {
    expectNoStore(await http(gateway.baseUrl, 'GET', '/api/portal/dev/mailbox'), 200);
  });
});
