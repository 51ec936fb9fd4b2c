import { verifySignatureHeader } from '@gateway/domain/webhooks';
import { randomBytes } from 'node:crypto';
import { type TestGateway, startGateway } from './support/gateway';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { type SchedulerProcess, startScheduler } from './support/scheduler-process';
import { WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(90_000);

/** API in-process, the real scheduler app as a child process, one shared encryption key. */
describe('webhooks', () => {
  const env = {
    ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1.5',
    WEBHOOK_TIMEOUT_MS: '2000',
  };
  let gateway: TestGateway;
  let scheduler: SchedulerProcess;
  let merchant: TestMerchant;
  let receiver: WebhookReceiver;
  let url: string;

  beforeAll(async () => {
    gateway = await startGateway(env);
    scheduler = await startScheduler({ ...env, DATABASE_URL: process.env.TEST_DATABASE_URL as string });
    merchant = await createMerchant(gateway, { identityVerified: true });
    receiver = new WebhookReceiver();
    url = await receiver.start();
  });
  afterAll(async () => {
    await scheduler?.stop();
    await receiver?.close();
    await gateway?.close();
  });

  const api = (method: string, path: string, body?: unknown, key = merchant.key) => http(gateway.baseUrl, method, `/api/v1${path}`, { token: key, body });
  const createCustomer = (key = merchant.key) => api('POST', '/customers/', { email: `c-${randomBytes(4).toString('hex')}@example.com`, metadata: { note: 'é😀 "quoted"', n: 0.00001 } }, key);
  const hooksFor = (eventId: string) => receiver.received.filter((h) => h.headers['x-gateway-event-id'] === eventId);

  it('registers an endpoint, shows the secret once, and checks events and version against the catalog', async () => {
    const created = await api('POST', '/webhooks/', { url, events: ['customer.created'], webhook_version: 'v1' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ id: expect.stringMatching(/^whk_/), url, events: ['customer.created'], webhook_version: 'v1', secret: expect.stringMatching(/^whsec_/) });
    const fetched = await api('GET', `/webhooks/${created.body.data.id}/`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.data.secret).toBeUndefined();
    expect(fetched.text).not.toContain(created.body.data.secret);
    expect((await api('POST', '/webhooks/', { url, events: ['payment.exploded'], webhook_version: 'v1' })).body.code).toBe('validation_error');
    expect((await api('POST', '/webhooks/', { url, events: ['customer.created'], webhook_version: 'v3' })).body.code).toBe('validation_error');
    const other = await createMerchant(gateway);
    expect((await api('GET', `/webhooks/${created.body.data.id}/`, undefined, other.key)).body.code).toBe('webhook_not_found');
    const live = await merchant.issueKey({ mode: 'live' });
    expect((await api('GET', `/webhooks/${created.body.data.id}/`, undefined, live.key)).status).toBe(404);
    expect((await api('DELETE', `/webhooks/${created.body.data.id}/`)).status).toBe(200);
    expect((await api('GET', `/webhooks/${created.body.data.id}/`)).status).toBe(404);
  });

  it.each(['http://example.com/h', 'https://localhost/h', 'https://10.0.0.1/h', 'https://169.254.169.254/h', 'https://[::1]/h', 'https://0.0.0.0/h'])('refuses %s in live mode', async (target) => {
    const live = await merchant.issueKey({ mode: 'live' });
    const res = await api('POST', '/webhooks/', { url: target, events: ['customer.created'], webhook_version: 'v1' }, live.key);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', errors: { url: [expect.any(String)] } });
  });

  it('delivers a signed v1 and v2 customer.created to subscribed endpoints of the same mode only, within a second', async () => {
    const v1 = (await api('POST', '/webhooks/', { url: `${url}?v=1`, events: ['customer.created'], webhook_version: 'v1' })).body.data;
    const v2 = (await api('POST', '/webhooks/', { url: `${url}?v=2`, events: ['customer.created', 'payment.success'], webhook_version: 'v2' })).body.data;
    await api('POST', '/webhooks/', { url: `${url}?v=pay`, events: ['payment.success'], webhook_version: 'v1' });
    const before = receiver.received.length;
    const started = Date.now();
    const customer = (await createCustomer()).body.data;
    await receiver.waitFor(before + 2);
    expect(Date.now() - started).toBeLessThan(1500);
    const mine = receiver.received.slice(before);
    expect(mine).toHaveLength(2);
    const now = Math.floor(Date.now() / 1000);
    for (const hook of mine) {
      const body = JSON.parse(hook.body);
      const endpointSecret = body.api_version === 'v2' ? v2.secret : v1.secret;
      expect(verifySignatureHeader(endpointSecret, String(hook.headers['x-gateway-signature']), hook.body, now)).toBe(true);
      expect(hook.headers['x-gateway-timestamp']).toBe(String(hook.headers['x-gateway-signature']).match(/t=(\d+)/)?.[1]);
      expect(hook.headers['x-gateway-event-id']).toBe(body.id);
    }
    const flat = JSON.parse(mine.find((h) => !JSON.parse(h.body).api_version)?.body ?? '{}');
    expect(flat).toMatchObject({ event: 'customer.created', id: expect.stringMatching(/^evt_/), mode: 'test', reference: customer.reference, email: customer.email, metadata: customer.metadata });
    const envelope = JSON.parse(mine.find((h) => JSON.parse(h.body).api_version)?.body ?? '{}');
    expect(envelope).toEqual({ id: flat.id, event: 'customer.created', api_version: 'v2', created_at: expect.any(String), mode: 'test', data: customer });

    // The other mode's customer reaches none of these test-mode endpoints.
    const live = await merchant.issueKey({ mode: 'live' });
    const count = receiver.received.length;
    await createCustomer(live.key);
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.received.length).toBe(count);
  });

  it('retries on the compressed schedule with fresh timestamps and one event id, logs each attempt, then fails; a manual retry delivers', async () => {
    const hook = (await api('POST', '/webhooks/', { url: `${url}?retry`, events: ['customer.created'], webhook_version: 'v1' })).body.data;
    receiver.respond = (h) => (h.url.endsWith('?retry') ? 500 : 200);
    const before = receiver.received.length;
    await createCustomer();
    const retryAttempts = () => receiver.received.slice(before).filter((h) => h.url.endsWith('?retry'));
    for (let i = 0; i < 100 && retryAttempts().length < 3; i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1500));
    const attempts = retryAttempts();
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.headers['x-gateway-event-id'])).size).toBe(1);
    expect(new Set(attempts.map((a) => a.headers['x-gateway-timestamp'])).size).toBeGreaterThan(1);
    expect(attempts[1].receivedAt - attempts[0].receivedAt).toBeGreaterThanOrEqual(900);
    expect(attempts[2].receivedAt - attempts[1].receivedAt).toBeGreaterThanOrEqual(1400);

    const logs = await api('GET', `/webhooks/${hook.id}/logs/?limit=2`);
    expect(logs.status).toBe(200);
    expect(logs.body.meta).toMatchObject({ has_more: true, limit: 2 });
    expect(logs.body.data[0]).toMatchObject({ log_id: expect.stringMatching(/^whl_/), success: false, status_code: 500, attempt: 3, trigger: 'automatic', response_body: 'receiver says 500', error: 'receiver answered 500' });
    const rest = await api('GET', `/webhooks/${hook.id}/logs/?cursor=${logs.body.meta.next_cursor}`);
    expect(rest.body.data.map((l: { attempt: number }) => l.attempt)).toEqual([1]);

    receiver.respond = () => 200;
    const retried = await api('POST', `/webhooks/logs/${logs.body.data[0].log_id}/retry/`);
    expect(retried.status).toBe(200);
    expect(retried.body.data).toEqual({ log_id: expect.stringMatching(/^whl_/), event_id: attempts[0].headers['x-gateway-event-id'], success: true, status_code: 200, latency_ms: expect.any(Number) });
    expect(receiver.received.at(-1)?.headers['x-gateway-event-id']).toBe(attempts[0].headers['x-gateway-event-id']);
    const other = await createMerchant(gateway);
    expect((await api('POST', `/webhooks/logs/${logs.body.data[0].log_id}/retry/`, undefined, other.key)).body.code).toBe('webhook_log_not_found');
  });

  it('sends a signed test event and answers status and latency only', async () => {
    const hook = (await api('POST', '/webhooks/', { url: `${url}?test`, events: ['customer.created'], webhook_version: 'v2' })).body.data;
    receiver.respond = () => 202;
    const res = await api('POST', '/webhooks/test/', { webhook_id: hook.id });
    receiver.respond = () => 200;
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ log_id: expect.any(String), event_id: expect.stringMatching(/^evt_/), success: true, status_code: 202, latency_ms: expect.any(Number) });
    const sent = receiver.received.at(-1);
    expect(JSON.parse(sent?.body ?? '{}')).toMatchObject({ event: 'webhook.test', api_version: 'v2' });
    expect(verifySignatureHeader(hook.secret, String(sent?.headers['x-gateway-signature']), sent?.body ?? '', Math.floor(Date.now() / 1000))).toBe(true);
    expect((await api('POST', '/webhooks/test/', { webhook_id: 'whk_missing' })).body.code).toBe('webhook_not_found');
  });

  it('rotates the secret: during the grace period both signatures are sent', async () => {
    const hook = (await api('POST', '/webhooks/', { url: `${url}?rotate`, events: ['customer.created'], webhook_version: 'v1' })).body.data;
    const rotated = await api('PATCH', `/webhooks/${hook.id}/`, { rotate_secret: true });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(hook.secret);
    const res = await api('POST', '/webhooks/test/', { webhook_id: hook.id });
    expect(res.body.data.success).toBe(true);
    const sent = receiver.received.at(-1);
    const header = String(sent?.headers['x-gateway-signature']);
    expect(header.match(/v1=/g)).toHaveLength(2);
    const now = Math.floor(Date.now() / 1000);
    expect(verifySignatureHeader(hook.secret, header, sent?.body ?? '', now)).toBe(true);
    expect(verifySignatureHeader(rotated.body.data.secret, header, sent?.body ?? '', now)).toBe(true);
  });

  it('re-delivers (same event id) when the worker is killed with SIGKILL between sending and recording', async () => {
    await api('POST', '/webhooks/', { url: `${url}?crash`, events: ['customer.created'], webhook_version: 'v1' });
    let release: (status: number) => void = () => undefined;
    receiver.respond = (h) => (h.url.endsWith('?crash') ? new Promise<number>((resolve) => (release = resolve)) : 200);
    const before = receiver.received.length;
    await createCustomer();
    // Other endpoints of this merchant also receive it; wait for the crash endpoint's request.
    const crashHook = async () => {
      for (let i = 0; i < 100; i++) {
        const found = receiver.received.slice(before).find((h) => h.url.endsWith('?crash'));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('no delivery to the crash endpoint');
    };
    const first = await crashHook();
    await scheduler.kill9();
    release(200);
    receiver.respond = () => 200;
    scheduler = await startScheduler({ ...env, DATABASE_URL: process.env.TEST_DATABASE_URL as string });
    const eventId = String(first.headers['x-gateway-event-id']);
    for (let i = 0; i < 200 && hooksFor(eventId).filter((h) => h.url.endsWith('?crash')).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    expect(hooksFor(eventId).filter((h) => h.url.endsWith('?crash')).length).toBeGreaterThanOrEqual(2);
  });
});
