import { verifySignatureHeader, WebhookResolver } from '@gateway/domain/webhooks';
import { randomBytes } from 'node:crypto';
import { query } from './support/db';
import { type TestGateway, startGateway } from './support/gateway';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { type SchedulerProcess, startScheduler } from './support/scheduler-process';
import { WebhookReceiver } from './support/webhook-receiver';

/** Addresses the spied resolver answers: the public one is only ever checked at registration, never connected to. */
const PUBLIC = { address: '93.184.215.14', family: 4 };
const LOOPBACK = { address: '127.0.0.1', family: 4 };

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
  /** Statuses of the deliveries to one endpoint, as stored (pending, delivered, failed). */
  const deliveryStatuses = async (webhookId: string) =>
    (
      await query<{ status: string }>(
        `SELECT d.status FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.reference = $1 ORDER BY d.created_at`,
        [webhookId],
      )
    ).map((d) => d.status);
  /** Polls until `done` holds; fails after `timeoutMs` (a deadline for a condition, not a sleep that proves anything). */
  const until = async (done: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

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
    const otherMode = await api('GET', `/webhooks/${created.body.data.id}/`, undefined, live.key);
    expect([otherMode.status, otherMode.body.code]).toEqual([404, 'webhook_not_found']);
    for (const key of [other.key, live.key]) {
      const logs = await api('GET', `/webhooks/${created.body.data.id}/logs/`, undefined, key);
      expect([logs.status, logs.body.code]).toEqual([404, 'webhook_not_found']);
    }
    expect((await api('GET', '/webhooks/wh_does_not_exist/logs/')).body.code).toBe('webhook_not_found');
    expect((await api('DELETE', `/webhooks/${created.body.data.id}/`)).status).toBe(200);
    expect((await api('GET', `/webhooks/${created.body.data.id}/`)).status).toBe(404);
  });

  it.each(['http://example.com/h', 'https://localhost/h', 'https://10.0.0.1/h', 'https://169.254.169.254/h', 'https://[::1]/h', 'https://0.0.0.0/h'])('refuses %s in live mode', async (target) => {
    const live = await merchant.issueKey({ mode: 'live' });
    const res = await api('POST', '/webhooks/', { url: target, events: ['customer.created'], webhook_version: 'v1' }, live.key);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', errors: { url: [expect.any(String)] } });
  });

  it('delivers a signed v1 and v2 customer.created to subscribed endpoints of the same mode only, seconds after the commit', async () => {
    const v1 = (await api('POST', '/webhooks/', { url: `${url}?v=1`, events: ['customer.created'], webhook_version: 'v1' })).body.data;
    const v2 = (await api('POST', '/webhooks/', { url: `${url}?v=2`, events: ['customer.created', 'payment.success'], webhook_version: 'v2' })).body.data;
    await api('POST', '/webhooks/', { url: `${url}?v=pay`, events: ['payment.success'], webhook_version: 'v1' });
    const before = receiver.received.length;
    const customer = (await createCustomer()).body.data;
    const committed = Date.now(); // the response comes after the commit that wrote the event
    await receiver.waitFor(before + 2);
    // Pushed on commit, not found by a later sweep; a loaded machine gets headroom. The latency
    // itself (milliseconds) is measured by `npm run bench:webhooks`, not here.
    expect(Date.now() - committed).toBeLessThan(5000);
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

    // The other mode's customer reaches none of these test-mode endpoints: no delivery is even
    // queued for it, and a later test-mode customer's delivery arrives while it never does.
    const live = await merchant.issueKey({ mode: 'live' });
    const count = receiver.received.length;
    const liveCustomer = (await createCustomer(live.key)).body.data;
    const [queued] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE e.data->>'reference' = $1`, [liveCustomer.reference]);
    expect(queued.n).toBe(0);
    const later = (await createCustomer()).body.data;
    await until(() => receiver.received.slice(count).some((h) => h.url.endsWith('?v=1') && JSON.parse(h.body).reference === later.reference), 'the later test-mode delivery');
    expect(receiver.received.slice(count).filter((h) => JSON.parse(h.body).mode === 'live' || h.body.includes(liveCustomer.reference))).toEqual([]);
  });

  it('retries on the compressed schedule with fresh timestamps and one event id, logs each attempt, then fails; a manual retry delivers', async () => {
    const hook = (await api('POST', '/webhooks/', { url: `${url}?retry`, events: ['customer.created'], webhook_version: 'v1' })).body.data;
    receiver.respond = (h) => (h.url.endsWith('?retry') ? 500 : 200);
    const before = receiver.received.length;
    await createCustomer();
    const retryAttempts = () => receiver.received.slice(before).filter((h) => h.url.endsWith('?retry'));
    for (let i = 0; i < 100 && retryAttempts().length < 3; i++) await new Promise((r) => setTimeout(r, 100));
    // After its last scheduled retry the delivery is `failed` — and a failed delivery is never tried again.
    await until(async () => (await deliveryStatuses(hook.id)).includes('failed'), 'the delivery to fail');
    expect(await deliveryStatuses(hook.id)).toEqual(['failed']);
    const attempts = retryAttempts();
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.headers['x-gateway-event-id'])).size).toBe(1);
    expect(new Set(attempts.map((a) => a.headers['x-gateway-timestamp'])).size).toBeGreaterThan(1);
    expect(attempts[1].receivedAt - attempts[0].receivedAt).toBeGreaterThanOrEqual(900);
    expect(attempts[2].receivedAt - attempts[1].receivedAt).toBeGreaterThanOrEqual(1400);

    const logs = await api('GET', `/webhooks/${hook.id}/logs/?limit=2`);
    expect(logs.status).toBe(200);
    expect(logs.body.meta).toMatchObject({ has_more: true, limit: 2 });
    expect(logs.body.data[0]).toMatchObject({ log_id: expect.stringMatching(/^whl_/), success: false, status_code: 500, attempt: 3, trigger: 'automatic', response_body: null, error: 'http_status' }); // a loopback receiver: its answer is not kept
    const rest = await api('GET', `/webhooks/${hook.id}/logs/?cursor=${logs.body.meta.next_cursor}`);
    expect(rest.body.data.map((l: { attempt: number }) => l.attempt)).toEqual([1]);

    receiver.respond = () => 200;
    const retried = await api('POST', `/webhooks/logs/${logs.body.data[0].log_id}/retry/`);
    expect(retried.status).toBe(200);
    expect(retried.body.data).toEqual({ log_id: expect.stringMatching(/^whl_/), event_id: attempts[0].headers['x-gateway-event-id'], success: true, status_code: 200, latency_ms: expect.any(Number) });
    expect(receiver.received.at(-1)?.headers['x-gateway-event-id']).toBe(attempts[0].headers['x-gateway-event-id']);
    expect(await deliveryStatuses(hook.id)).toEqual(['delivered']);
    const other = await createMerchant(gateway);
    expect((await api('POST', `/webhooks/logs/${logs.body.data[0].log_id}/retry/`, undefined, other.key)).body.code).toBe('webhook_log_not_found');
  });

  it('lists endpoints newest first with a cursor, and PATCH changes url and events (deliveries follow)', async () => {
    const own = await createMerchant(gateway);
    const created: Array<{ id: string; secret: string }> = [];
    for (const suffix of ['a', 'b', 'c']) {
      created.push((await api('POST', '/webhooks/', { url: `${url}?list-${suffix}`, events: ['payment.success'], webhook_version: 'v1' }, own.key)).body.data);
      gateway.clock.advance(1000); // distinct created_at, so "newest first" is observable
    }
    const page = await api('GET', '/webhooks/?limit=2', undefined, own.key);
    expect(page.status).toBe(200);
    expect(page.body.data.map((w: { id: string }) => w.id)).toEqual([created[2].id, created[1].id]);
    expect(page.body.meta).toMatchObject({ has_more: true, limit: 2, next_cursor: expect.any(String) });
    for (const hook of created) expect(page.text).not.toContain(hook.secret);
    const rest = await api('GET', `/webhooks/?limit=2&cursor=${page.body.meta.next_cursor}`, undefined, own.key);
    expect(rest.body.data.map((w: { id: string }) => w.id)).toEqual([created[0].id]);
    expect(rest.body.meta).toMatchObject({ has_more: false, next_cursor: null });

    const patched = await api('PATCH', `/webhooks/${created[0].id}/`, { url: `${url}?patched`, events: ['customer.created', 'payment.success'] }, own.key);
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ id: created[0].id, url: `${url}?patched`, events: ['customer.created', 'payment.success'], webhook_version: 'v1' });
    expect(patched.body.data.secret).toBeUndefined();
    expect((await api('GET', `/webhooks/${created[0].id}/`, undefined, own.key)).body.data).toMatchObject({ url: `${url}?patched`, events: ['customer.created', 'payment.success'] });
    expect((await api('PATCH', `/webhooks/${created[0].id}/`, { events: ['payment.exploded'] }, own.key)).body).toMatchObject({ code: 'validation_error', errors: { events: [expect.any(String)] } });
    expect((await api('PATCH', `/webhooks/${created[0].id}/`, { events: [] }, own.key)).body.code).toBe('validation_error');

    // The patched endpoint now receives customer.created at its new URL, with its unchanged secret.
    const before = receiver.received.length;
    await createCustomer(own.key);
    for (let i = 0; i < 100 && !receiver.received.slice(before).some((h) => h.url.endsWith('?patched')); i++) await new Promise((r) => setTimeout(r, 50));
    const hook = receiver.received.slice(before).find((h) => h.url.endsWith('?patched'));
    expect(hook).toBeDefined();
    expect(verifySignatureHeader(created[0].secret, String(hook?.headers['x-gateway-signature']), hook?.body ?? '', Math.floor(Date.now() / 1000))).toBe(true);
    expect(receiver.received.slice(before).filter((h) => h.url.includes('?list-'))).toHaveLength(0);
  });

  it('lets webhooks:manage read (list, get, logs) as webhooks:read does; webhooks:read cannot change anything', async () => {
    const hook = (await api('POST', '/webhooks/', { url: `${url}?scopes`, events: ['payment.success'], webhook_version: 'v1' })).body.data;
    const manage = (await merchant.issueKey({ scopes: ['webhooks:manage'] })).key;
    const read = (await merchant.issueKey({ scopes: ['webhooks:read'] })).key;
    const other = (await merchant.issueKey({ scopes: ['customers:read'] })).key;
    for (const path of ['/webhooks/', `/webhooks/${hook.id}/`, `/webhooks/${hook.id}/logs/`]) {
      expect([path, (await api('GET', path, undefined, manage)).status]).toEqual([path, 200]);
      expect([path, (await api('GET', path, undefined, read)).status]).toEqual([path, 200]);
      const refused = await api('GET', path, undefined, other);
      expect([path, refused.status, refused.body.code]).toEqual([path, 403, 'insufficient_scope']);
    }
    const patch = await api('PATCH', `/webhooks/${hook.id}/`, { events: ['customer.created'] }, read);
    expect([patch.status, patch.body.code]).toEqual([403, 'insufficient_scope']);
    expect((await api('POST', '/webhooks/test/', { webhook_id: hook.id }, read)).status).toBe(403);
    expect((await api('DELETE', `/webhooks/${hook.id}/`, undefined, manage)).status).toBe(200);
  });

  describe('in live mode, with a resolver the test controls (no real DNS, no traffic beyond 127.0.0.1)', () => {
    let live: string;
    let rebound: boolean;
    let spy: jest.SpyInstance;
    beforeAll(async () => {
      live = (await merchant.issueKey({ mode: 'live' })).key;
      const resolver = gateway.app.get(WebhookResolver);
      const original = resolver.resolve.bind(resolver);
      // hooks.gateway.test: a public address (registration only). rebind.gateway.test: public at
      // registration, loopback afterwards (DNS rebinding). Live endpoints below subscribe only to
      // payment.failed, which nothing here emits, so the scheduler never tries them.
      spy = jest.spyOn(resolver, 'resolve').mockImplementation(async (hostname: string) => {
        if (hostname === 'hooks.gateway.test') return [PUBLIC];
        if (hostname !== 'rebind.gateway.test') return original(hostname);
        const first = !rebound;
        rebound = true;
        return [first ? PUBLIC : LOOPBACK];
      });
    });
    afterAll(() => spy.mockRestore());

    it.each(['https://127.0.0.1/h', 'https://localhost/h', 'https://10.0.0.1/h', 'https://169.254.169.254/h', 'https://[::1]/h', 'http://hooks.gateway.test/h'])('refuses a PATCH of the url to %s', async (target) => {
      const hook = (await api('POST', '/webhooks/', { url: 'https://hooks.gateway.test/h', events: ['payment.failed'], webhook_version: 'v1' }, live)).body.data;
      expect(hook.url).toBe('https://hooks.gateway.test/h');
      const res = await api('PATCH', `/webhooks/${hook.id}/`, { url: target }, live);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_error', errors: { url: [expect.any(String)] } });
      expect((await api('GET', `/webhooks/${hook.id}/`, undefined, live)).body.data.url).toBe('https://hooks.gateway.test/h');
      await api('DELETE', `/webhooks/${hook.id}/`, undefined, live);
    });

    it('refuses at connect time a host that passed registration but now resolves to loopback, without connecting, and logs why', async () => {
      rebound = false;
      const target = `https://rebind.gateway.test:${receiver.port}/hooks`;
      const created = await api('POST', '/webhooks/', { url: target, events: ['payment.failed'], webhook_version: 'v1' }, live);
      expect(created.status).toBe(201);
      const connections = receiver.connections;
      const sent = await api('POST', '/webhooks/test/', { webhook_id: created.body.data.id }, live);
      expect(sent.status).toBe(200);
      expect(sent.body.data).toMatchObject({ success: false, status_code: null });
      expect(receiver.connections).toBe(connections);
      const logs = await api('GET', `/webhooks/${created.body.data.id}/logs/`, undefined, live);
      expect(logs.body.data[0]).toMatchObject({ trigger: 'test', success: false, status_code: null, error: 'url_not_allowed' });
      await api('DELETE', `/webhooks/${created.body.data.id}/`, undefined, live);
    });
  });

  it('answers 409 conflict to a manual retry while an automatic attempt of the same delivery is in flight; attempts are numbered once each', async () => {
    const hook = (await api('POST', '/webhooks/', { url: `${url}?race`, events: ['customer.created'], webhook_version: 'v1' })).body.data;
    let release: (status: number) => void = () => undefined;
    let raceRequests = 0;
    receiver.respond = (h) => {
      if (!h.url.endsWith('?race')) return 200;
      raceRequests += 1;
      return raceRequests === 1 ? 500 : new Promise<number>((resolve) => (release = resolve));
    };
    try {
      await createCustomer();
      const firstLog = async () => {
        for (let i = 0; i < 100; i++) {
          const logs = (await api('GET', `/webhooks/${hook.id}/logs/`)).body.data;
          if (logs.length) return logs[0];
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error('the first attempt was never logged');
      };
      const first = await firstLog();
      // The second automatic attempt (1 s later) is held by the receiver: retry now.
      for (let i = 0; i < 100 && raceRequests < 2; i++) await new Promise((r) => setTimeout(r, 50));
      expect(raceRequests).toBe(2);
      const refused = await api('POST', `/webhooks/logs/${first.log_id}/retry/`);
      expect([refused.status, refused.body.code]).toEqual([409, 'conflict']);
      expect(raceRequests).toBe(2);
      release(200);
      for (let i = 0; i < 100 && (await api('GET', `/webhooks/${hook.id}/logs/`)).body.data.length < 2; i++) await new Promise((r) => setTimeout(r, 50));

      receiver.respond = () => 200;
      const retried = await api('POST', `/webhooks/logs/${first.log_id}/retry/`);
      expect(retried.body.data).toMatchObject({ success: true, status_code: 200 });
      const logs = (await api('GET', `/webhooks/${hook.id}/logs/`)).body.data as Array<{ attempt: number; trigger: string; success: boolean }>;
      expect(logs.map((l) => [l.attempt, l.trigger, l.success]).sort()).toEqual([
        [1, 'automatic', false],
        [2, 'automatic', true],
        [3, 'manual', true],
      ]);
    } finally {
      receiver.respond = () => 200;
    }
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

    // Once the grace period is over (24 h by default), only the new secret signs: one v1=.
    const graceEnds = new Date(rotated.body.data.previous_secret_expires_at).getTime();
    const saved = gateway.clock.now();
    gateway.clock.set(new Date(graceEnds + 1000));
    try {
      expect((await api('POST', '/webhooks/test/', { webhook_id: hook.id })).body.data.success).toBe(true);
      const after = receiver.received.at(-1);
      const single = String(after?.headers['x-gateway-signature']);
      expect(single.match(/v1=/g)).toHaveLength(1);
      const then = Math.floor((graceEnds + 1000) / 1000);
      expect(verifySignatureHeader(rotated.body.data.secret, single, after?.body ?? '', then)).toBe(true);
      expect(verifySignatureHeader(hook.secret, single, after?.body ?? '', then)).toBe(false);
    } finally {
      gateway.clock.set(saved);
    }
  });

  it('stops the pending deliveries of a deleted endpoint: its retries never come while a kept endpoint\'s do', async () => {
    const doomed = (await api('POST', '/webhooks/', { url: `${url}?doomed`, events: ['customer.created'], webhook_version: 'v1' })).body.data;
    const kept = (await api('POST', '/webhooks/', { url: `${url}?kept`, events: ['customer.created'], webhook_version: 'v1' })).body.data;
    receiver.respond = (h) => (h.url.endsWith('?doomed') || h.url.endsWith('?kept') ? 500 : 200);
    try {
      const before = receiver.received.length;
      const to = (suffix: string) => receiver.received.slice(before).filter((h) => h.url.endsWith(suffix));
      await createCustomer();
      // Both first attempts failed and were recorded (a retry is scheduled for each)...
      await until(async () => (await api('GET', `/webhooks/${doomed.id}/logs/`)).body.data.length === 1, "the doomed endpoint's first attempt to be logged");
      expect(await deliveryStatuses(doomed.id)).toEqual(['pending']);
      expect((await api('DELETE', `/webhooks/${doomed.id}/`)).status).toBe(200);
      expect(await deliveryStatuses(doomed.id)).toEqual(['failed']);
      // ...and the kept endpoint's two retries (1 s and 1.5 s later) come, so the deleted one's would have too.
      await until(() => to('?kept').length >= 3, "the kept endpoint's retries");
      expect(to('?doomed')).toHaveLength(1);
      expect(await deliveryStatuses(doomed.id)).toEqual(['failed']);
      // The receiver has the last attempt before the dispatcher records its answer: wait for the record.
      await until(async () => (await deliveryStatuses(kept.id))[0] === 'failed', "the kept endpoint's last attempt to be recorded");
      expect(await deliveryStatuses(kept.id)).toEqual(['failed']);
    } finally {
      receiver.respond = () => 200;
    }
  });

  it('counts a 3xx answer as a failed attempt: the redirect is never followed, and the delivery is retried', async () => {
    const hook = (await api('POST', '/webhooks/', { url: `${url}?moved`, events: ['customer.created'], webhook_version: 'v1' })).body.data;
    receiver.respond = (h) => (h.url.endsWith('?moved') ? 302 : 200);
    receiver.headersFor = (h): Record<string, string> => (h.url.endsWith('?moved') ? { location: `${url}?moved-here` } : {});
    try {
      const before = receiver.received.length;
      const to = (suffix: string) => receiver.received.slice(before).filter((h) => h.url.endsWith(suffix));
      const tested = await api('POST', '/webhooks/test/', { webhook_id: hook.id });
      expect(tested.body.data).toMatchObject({ success: false, status_code: 302 });

      await createCustomer();
      const automatic = async () =>
        ((await api('GET', `/webhooks/${hook.id}/logs/`)).body.data as Array<{ trigger: string; attempt: number; success: boolean; status_code: number }>)
          .filter((l) => l.trigger === 'automatic')
          .map((l) => [l.attempt, l.success, l.status_code])
          .sort();
      // Retried 1 s later: the 302 was a failure.
      await until(async () => (await automatic()).length >= 2, 'the automatic attempt and its retry to be logged');
      expect((await automatic()).slice(0, 2)).toEqual([
        [1, false, 302],
        [2, false, 302],
      ]);
      expect(to('?moved').length).toBeGreaterThanOrEqual(3);
      expect(to('?moved-here')).toHaveLength(0);
    } finally {
      receiver.respond = () => 200;
      receiver.headersFor = () => ({});
    }
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
