import { type TestGateway, startGateway } from './support/gateway';
import { http } from './support/http';
import { type PortalAccount, provisionAccount, signedInPlatformUser } from './support/portal-client';
import { WebhookReceiver } from './support/webhook-receiver';

/**
 * The portal's webhook routes: the merchant API's shapes and rules for the session's account and
 * mode (the same endpoints a test key sees), `webhooks:manage` for every change (viewers read
 * only), CSRF on every change, and another account's endpoint or log answered as missing.
 */
describe('portal webhook routes', () => {
  let gateway: TestGateway;
  let a: PortalAccount;
  let b: PortalAccount;
  let receiver: WebhookReceiver;
  let url: string;

  beforeAll(async () => {
    gateway = await startGateway();
    const admin = (await signedInPlatformUser(gateway)).client;
    a = await provisionAccount(gateway, admin);
    b = await provisionAccount(gateway, admin);
    receiver = new WebhookReceiver();
    url = await receiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await gateway?.close();
  });

  it('registers, lists, tests, retries, updates and deletes an endpoint with the merchant API’s shapes', async () => {
    const created = await a.owner.post('/api/portal/webhooks', { body: { url, events: ['payment.success'], webhook_version: 'v1' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ url, events: ['payment.success'], webhook_version: 'v1', mode: 'test', secret: expect.stringMatching(/^whsec_/) });
    const id = created.body.data.id as string;

    // The same endpoint through the merchant API with a test key of the account.
    const key = (await a.owner.post('/api/portal/keys', { body: { name: 'webhooks' } })).body.data.secret as string;
    const merchant = await http(gateway.baseUrl, 'GET', `/api/v1/webhooks/${id}`, { token: key });
    const portal = await a.owner.get(`/api/portal/webhooks/${id}`);
    expect(portal.body.data).toEqual(merchant.body.data);
    expect((await a.owner.get('/api/portal/webhooks')).body).toMatchObject({ data: [{ id }], meta: { has_more: false } });

    receiver.respond = () => 503;
    const failed = await a.owner.post('/api/portal/webhooks/test', { body: { webhook_id: id } });
    expect(failed.body.data).toMatchObject({ success: false, status_code: 503 });
    receiver.respond = () => 200;
    gateway.clock.advance(1000); // the clock is a manual one: logs are ordered by time
    const retried = await a.owner.post(`/api/portal/webhooks/logs/${failed.body.data.log_id as string}/retry`);
    expect(retried.body.data).toMatchObject({ success: true, status_code: 200, event_id: failed.body.data.event_id });
    const logs = await a.owner.get(`/api/portal/webhooks/${id}/logs`);
    expect(logs.body.data.map((l: { trigger: string; success: boolean }) => [l.trigger, l.success])).toEqual([
      ['manual', true],
      ['test', false],
    ]);

    const refused = await a.owner.request('PATCH', `/api/portal/webhooks/${id}`, { body: { events: ['nope'] } });
    expect([refused.status, refused.body.code, Object.keys(refused.body.errors ?? {})]).toEqual([400, 'validation_error', ['events']]);
    const updated = await a.owner.request('PATCH', `/api/portal/webhooks/${id}`, { body: { events: ['refund.completed'], webhook_version: 'v2' } });
    expect(updated.body.data).toMatchObject({ events: ['refund.completed'], webhook_version: 'v2' });
    expect(updated.body.data.secret).toBeUndefined();

    const deleted = await a.owner.delete(`/api/portal/webhooks/${id}`);
    expect(deleted.body.data).toEqual({ id, deleted: true });
    expect((await a.owner.get(`/api/portal/webhooks/${id}`)).status).toBe(404);
  });

  it('refuses a URL the rules refuse, changes without a CSRF token, and viewers’ changes', async () => {
    const link = await a.owner.post('/api/portal/webhooks', { body: { url: 'http://169.254.169.254/latest', events: ['payment.success'], webhook_version: 'v1' } });
    expect([link.status, link.body.code, Object.keys(link.body.errors ?? {})]).toEqual([400, 'validation_error', ['url']]);

    const id = (await a.owner.post('/api/portal/webhooks', { body: { url, events: ['payment.success'], webhook_version: 'v1' } })).body.data.id as string;
    const noCsrf = await a.owner.post('/api/portal/webhooks/test', { body: { webhook_id: id }, csrf: false });
    expect([noCsrf.status, noCsrf.body.code]).toEqual([403, 'csrf_token_invalid']);

    const viewer = (await a.addMember('viewer')).client;
    expect((await viewer.get(`/api/portal/webhooks/${id}`)).status).toBe(200);
    expect((await viewer.get(`/api/portal/webhooks/${id}/logs`)).status).toBe(200);
    const changes: Array<[string, string, unknown]> = [
      ['POST', '/api/portal/webhooks', { url, events: ['payment.success'], webhook_version: 'v1' }],
      ['PATCH', `/api/portal/webhooks/${id}`, { rotate_secret: true }],
      ['DELETE', `/api/portal/webhooks/${id}`, undefined],
      ['POST', '/api/portal/webhooks/test', { webhook_id: id }],
      ['POST', '/api/portal/webhooks/logs/whl_unknown/retry', undefined],
    ];
    for (const [method, path, body] of changes) {
      const answer = await viewer.request(method, path, { body });
      expect([method, path, answer.status, answer.body.code]).toEqual([method, path, 403, 'insufficient_role']);
    }
    const developer = (await a.addMember('developer')).client;
    const rotated = await developer.request('PATCH', `/api/portal/webhooks/${id}`, { body: { rotate_secret: true } });
    expect(rotated.body.data).toMatchObject({ secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: expect.any(String) });
  });

  it('changes an endpoint’s URL under the same rules as registering one', async () => {
    const id = (await a.owner.post('/api/portal/webhooks', { body: { url, events: ['payment.success'], webhook_version: 'v1' } })).body.data.id as string;
    const moved = `${url}/moved`;
    const changed = await a.owner.request('PATCH', `/api/portal/webhooks/${id}`, { body: { url: moved } });
    expect([changed.status, changed.body.data.url, changed.body.data.events]).toEqual([200, moved, ['payment.success']]);
    for (const refusedUrl of ['http://169.254.169.254/latest', 'ftp://example.com/hook', 'not a url']) {
      const refused = await a.owner.request('PATCH', `/api/portal/webhooks/${id}`, { body: { url: refusedUrl } });
      expect([refusedUrl, refused.status, refused.body.code, Object.keys(refused.body.errors ?? {})]).toEqual([refusedUrl, 400, 'validation_error', ['url']]);
    }
    expect((await a.owner.get(`/api/portal/webhooks/${id}`)).body.data.url).toBe(moved);
  });

  it('lists the account’s failed deliveries across its endpoints, newest first, for viewers too, never another account’s or a deleted endpoint’s', async () => {
    const account = await provisionAccount(gateway, (await signedInPlatformUser(gateway)).client);
    const register = async () => (await account.owner.post('/api/portal/webhooks', { body: { url, events: ['payment.success'], webhook_version: 'v1' } })).body.data.id as string;
    const first = await register();
    const second = await register();
    const gone = await register();
    const test = async (id: string) => {
      gateway.clock.advance(1000);
      return (await account.owner.post('/api/portal/webhooks/test', { body: { webhook_id: id } })).body.data as { log_id: string; success: boolean };
    };
    receiver.respond = () => 500;
    const failedFirst = await test(first);
    const failedGone = await test(gone);
    const failedSecond = await test(second);
    receiver.respond = () => 200;
    expect((await test(first)).success).toBe(true);
    expect((await account.owner.delete(`/api/portal/webhooks/${gone}`)).status).toBe(200);
    // Another account's failure is not listed.
    receiver.respond = () => 500;
    const other = await provisionAccount(gateway, (await signedInPlatformUser(gateway)).client);
    const otherId = (await other.owner.post('/api/portal/webhooks', { body: { url, events: ['payment.success'], webhook_version: 'v1' } })).body.data.id as string;
    expect((await other.owner.post('/api/portal/webhooks/test', { body: { webhook_id: otherId } })).body.data.success).toBe(false);
    receiver.respond = () => 200;

    const listed = await account.owner.get('/api/portal/webhooks/deliveries/failed');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((l: { log_id: string; webhook_id: string; success: boolean }) => [l.log_id, l.webhook_id, l.success])).toEqual([
      [failedSecond.log_id, second, false],
      [failedFirst.log_id, first, false],
    ]);
    expect(listed.body.data[0]).toMatchObject({ event: 'webhook.test', trigger: 'test', status_code: 500 });
    expect(failedGone.success).toBe(false);

    // Cursor pages, as every list.
    const page1 = await account.owner.get('/api/portal/webhooks/deliveries/failed?limit=1');
    expect(page1.body.meta).toMatchObject({ has_more: true, limit: 1 });
    const page2 = await account.owner.get(`/api/portal/webhooks/deliveries/failed?limit=1&cursor=${encodeURIComponent(page1.body.meta.next_cursor as string)}`);
    expect([page1.body.data[0].log_id, page2.body.data[0].log_id, page2.body.meta.has_more]).toEqual([failedSecond.log_id, failedFirst.log_id, false]);

    const viewer = (await account.addMember('viewer')).client;
    expect((await viewer.get('/api/portal/webhooks/deliveries/failed')).body.data).toHaveLength(2);
    expect((await fetch(`${gateway.baseUrl}/api/portal/webhooks/deliveries/failed`)).status).toBe(401);
  });

  it('answers another account’s endpoint and logs as missing', async () => {
    const id = (await a.owner.post('/api/portal/webhooks', { body: { url, events: ['payment.success'], webhook_version: 'v1' } })).body.data.id as string;
    const log = (await a.owner.post('/api/portal/webhooks/test', { body: { webhook_id: id } })).body.data.log_id as string;
    for (const [method, path, body] of [
      ['GET', `/api/portal/webhooks/${id}`, undefined],
      ['GET', `/api/portal/webhooks/${id}/logs`, undefined],
      ['PATCH', `/api/portal/webhooks/${id}`, { rotate_secret: true }],
      ['DELETE', `/api/portal/webhooks/${id}`, undefined],
      ['POST', '/api/portal/webhooks/test', { webhook_id: id }],
    ] as Array<[string, string, unknown]>) {
      const answer = await b.owner.request(method, path, { body });
      expect([method, path, answer.status, answer.body.code]).toEqual([method, path, 404, 'webhook_not_found']);
    }
    const retry = await b.owner.post(`/api/portal/webhooks/logs/${log}/retry`);
    expect([retry.status, retry.body.code]).toEqual([404, 'webhook_log_not_found']);
    expect((await b.owner.get('/api/portal/webhooks')).body.data).toEqual([]);
  });
});
