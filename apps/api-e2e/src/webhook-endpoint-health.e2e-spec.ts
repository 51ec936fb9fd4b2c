import { ApiKeysService } from '@gateway/domain/api-keys';
import { randomBytes } from 'node:crypto';
import { query } from './support/db';
import { type TestGateway, startGateway } from './support/gateway';
import { http } from './support/http';
import { createMerchant } from './support/merchants';
import { type PortalAccount, provisionAccount, signedInPlatformUser } from './support/portal-client';
import { type SchedulerProcess, startScheduler } from './support/scheduler-process';
import { WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(120_000);

/** WEBHOOK_DISABLE_AFTER_DAYS in this run: 0.00002 days = 1.728 s, so the period rule is exercised for real. */
const DISABLE_AFTER_MS = 1728;

/**
 * Endpoints that heal, end to end: the API in-process, the real scheduler as a child process (its
 * worker delivers, its scan disables), a receiver answering 500 and then 200.
 */
describe('webhook endpoint health: disabled after its failures, replayed after re-enabling', () => {
  const env = {
    ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    WEBHOOK_RETRY_SCHEDULE_SECONDS: '0.2',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_DISABLE_AFTER_FAILURES: '3',
    WEBHOOK_DISABLE_AFTER_DAYS: '0.00002',
    WEBHOOK_DISABLE_SCAN_INTERVAL_SECONDS: '1',
  };
  let gateway: TestGateway;
  let scheduler: SchedulerProcess;
  let account: PortalAccount;
  let key: string;
  let failing: WebhookReceiver;
  let watcher: WebhookReceiver;
  let failingUrl: string;
  let watcherUrl: string;

  beforeAll(async () => {
    gateway = await startGateway(env);
    scheduler = await startScheduler({ ...env, DATABASE_URL: process.env.TEST_DATABASE_URL as string });
    // Identity verified: its live keys work, so the other mode can be tried.
    account = await provisionAccount(gateway, (await signedInPlatformUser(gateway)).client, { identityVerified: true });
    key = (await account.owner.post('/api/portal/keys', { body: { name: 'webhooks' } })).body.data.secret as string;
    failing = new WebhookReceiver();
    failingUrl = await failing.start();
    watcher = new WebhookReceiver();
    watcherUrl = await watcher.start();
  });
  afterAll(async () => {
    await scheduler?.stop();
    await failing?.close();
    await watcher?.close();
    await gateway?.close();
  });

  const api = (method: string, path: string, body?: unknown, options: { key?: string; idempotencyKey?: string } = {}) =>
    http(gateway.baseUrl, method, `/api/v1${path}`, { token: options.key ?? key, body, headers: options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {} });
  const createCustomer = async () => {
    const created = await api('POST', '/customers/', { email: `c-${randomBytes(4).toString('hex')}@example.com` });
    expect(created.status).toBe(201);
  };
  const eventIdsAt = (receiver: WebhookReceiver, from = 0) => receiver.received.slice(from).map((hook) => String(hook.headers['x-gateway-event-id']));
  const until = async (done: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const endpoint = async (id: string) => {
    const shown = await api('GET', `/webhooks/${id}/`);
    expect(shown.status).toBe(200);
    return shown.body.data;
  };
  const deliveriesOf = (id: string) =>
    query<{ status: string; event_id: string }>(`SELECT d.status, d.event_id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.reference = $1 ORDER BY d.created_at, d.event_id`, [id]);

  it('an endpoint whose deliveries keep failing is disabled with an event and an e-mail, then enabled and its failed deliveries replayed with their event ids', async () => {
    failing.respond = () => 500;
    const broken = (await api('POST', '/webhooks/', { url: failingUrl, events: ['customer.created', 'webhook_endpoint.disabled'], webhook_version: 'v2' })).body.data;
    const observer = (await api('POST', '/webhooks/', { url: watcherUrl, events: ['customer.created', 'webhook_endpoint.disabled'], webhook_version: 'v1' })).body.data;
    expect(broken).toMatchObject({
      status: 'enabled',
      disabled_at: null,
      disabled_reason: null,
      health: { window_days: 7, attempts: 0, success_rate: null, consecutive_failed_deliveries: 0, failing_since: null },
    });
    const since = new Date(gateway.clock.now().getTime() - 60_000).toISOString();

    // Three events, each failing through its whole schedule (two attempts): a run of three failed deliveries.
    for (let i = 0; i < 3; i++) await createCustomer();
    await until(async () => (await endpoint(broken.id)).status === 'disabled', 'the scan to disable the endpoint');
    const disabled = await endpoint(broken.id);
    expect(disabled).toMatchObject({
      disabled_reason: 'consecutive_failures',
      health: { attempts: 6, succeeded_attempts: 0, success_rate: 0, last_success_at: null, last_failure_error: 'http_status', last_failure_status_code: 500, consecutive_failed_deliveries: 3 },
    });
    // The period rule held: not disabled before the run had lasted WEBHOOK_DISABLE_AFTER_DAYS.
    expect(new Date(disabled.disabled_at).getTime() - new Date(disabled.health.failing_since).getTime()).toBeGreaterThanOrEqual(DISABLE_AFTER_MS);
    const failedEvents = (await deliveriesOf(broken.id)).map((d) => [d.status, d.event_id]);
    expect(failedEvents.map(([status]) => status)).toEqual(['failed', 'failed', 'failed']);
    expect(new Set(eventIdsAt(failing))).toEqual(new Set(failedEvents.map(([, id]) => id)));

    // The event: to the account's other subscribed endpoint (a v1 body: `webhook_id` names the endpoint), never to the disabled one.
    await until(() => watcher.received.some((hook) => hook.headers['x-gateway-event'] === 'webhook_endpoint.disabled'), 'webhook_endpoint.disabled at the other endpoint');
    const announced = JSON.parse(watcher.received.find((hook) => hook.headers['x-gateway-event'] === 'webhook_endpoint.disabled')?.body ?? '{}');
    expect(announced).toMatchObject({ event: 'webhook_endpoint.disabled', id: expect.stringMatching(/^evt_/), mode: 'test', webhook_id: broken.id, url: failingUrl, status: 'disabled', disabled_reason: 'consecutive_failures' });
    expect(announced.secret).toBeUndefined();
    expect(failing.received.some((hook) => hook.headers['x-gateway-event'] === 'webhook_endpoint.disabled')).toBe(false);
    expect(await query(`SELECT name FROM events WHERE id = $1`, [announced.id])).toEqual([{ name: 'webhook_endpoint.disabled' }]);
    // The e-mail, to the account's owner.
    const mailbox = await http(gateway.baseUrl, 'GET', `/api/portal/dev/mailbox?to=${encodeURIComponent(account.ownerEmail)}`);
    const mail = mailbox.body.data.find((m: { subject: string }) => m.subject.startsWith('Webhook endpoint disabled'));
    expect(mail.subject).toBe(`Webhook endpoint disabled: ${new URL(failingUrl).host} (test mode)`);
    expect(mail.body).toContain(`/api/v1/webhooks/${broken.id}/enable`);

    // While disabled, new events are not sent to it: the observer gets the next customer, the broken one nothing.
    const heardBefore = failing.received.length;
    const observed = watcher.received.length;
    await createCustomer();
    await until(() => watcher.received.length > observed, 'the next customer.created at the observer');
    expect(failing.received.length).toBe(heardBefore);
    expect(await deliveriesOf(broken.id)).toHaveLength(3);
    // A replay is refused while it is disabled.
    const refused = await api('POST', `/webhooks/${broken.id}/replay/`, { since });
    expect([refused.status, refused.body.code]).toEqual([409, 'invalid_state']);

    // Fixed, enabled: a fresh run; enabling again is refused.
    failing.respond = () => 200;
    const enabled = await api('POST', `/webhooks/${broken.id}/enable/`);
    expect(enabled.status).toBe(200);
    expect(enabled.body.data).toMatchObject({ id: broken.id, status: 'enabled', disabled_at: null, disabled_reason: null, health: { consecutive_failed_deliveries: 0, failing_since: null } });
    const again = await api('POST', `/webhooks/${broken.id}/enable/`);
    expect([again.status, again.body.code]).toEqual([409, 'invalid_state']);

    // Replay every failed delivery since T: the same event ids arrive again, and the health shows the recovery.
    const heard = failing.received.length;
    const replayKey = `replay-${randomBytes(4).toString('hex')}`;
    const replayed = await api('POST', `/webhooks/${broken.id}/replay/`, { since }, { idempotencyKey: replayKey });
    expect(replayed.status).toBe(202);
    expect(replayed.body.data).toEqual({ webhook_id: broken.id, since: new Date(since).toISOString(), queued: 3 });
    const sameKey = await api('POST', `/webhooks/${broken.id}/replay/`, { since }, { idempotencyKey: replayKey });
    expect([sameKey.status, sameKey.headers.get('idempotent-replayed'), sameKey.body.data.queued]).toEqual([202, 'true', 3]);
    await until(() => failing.received.length >= heard + 3, 'the three replayed deliveries');
    expect(new Set(eventIdsAt(failing, heard))).toEqual(new Set(failedEvents.map(([, id]) => id)));
    await until(async () => (await deliveriesOf(broken.id)).every((d) => d.status === 'delivered'), 'the replayed deliveries to be recorded');
    const healed = await endpoint(broken.id);
    expect(healed.health).toMatchObject({ attempts: 9, succeeded_attempts: 3, success_rate: 0.3333, consecutive_failed_deliveries: 0, failing_since: null, last_failure_error: 'http_status' });
    expect(healed.health.last_success_at).not.toBeNull();
    const logs = (await api('GET', `/webhooks/${broken.id}/logs/`)).body.data as Array<{ trigger: string; success: boolean }>;
    expect(logs.filter((log) => log.trigger === 'replay').map((log) => log.success)).toEqual([true, true, true]);
    expect(observer.id).not.toBe(broken.id);
  });

  it('two replays at once send each failed delivery once', async () => {
    failing.respond = () => 500;
    const hook = (await api('POST', '/webhooks/', { url: `${failingUrl}?twice`, events: ['customer.created'], webhook_version: 'v1' })).body.data;
    const since = new Date(gateway.clock.now().getTime() - 1000).toISOString();
    await createCustomer();
    await createCustomer();
    // Two failed deliveries: short of the three that disable it.
    await until(async () => (await endpoint(hook.id)).health.consecutive_failed_deliveries === 2, 'two failed deliveries');
    failing.respond = () => 200;
    const [a, b] = await Promise.all([api('POST', `/webhooks/${hook.id}/replay/`, { since }), api('POST', `/webhooks/${hook.id}/replay/`, { since })]);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.body.data.queued + b.body.data.queued).toBe(2);
    // Once both are delivered nothing is pending, so nothing more can be sent: each was attempted once by the replay.
    await until(async () => (await deliveriesOf(hook.id)).every((d) => d.status === 'delivered'), 'both replayed deliveries');
    const replays = await query<{ event_id: string }>(
      `SELECT l.event_id FROM webhook_delivery_logs l JOIN webhook_endpoints e ON e.id = l.endpoint_id WHERE e.reference = $1 AND l.trigger = 'replay'`,
      [hook.id],
    );
    expect(replays).toHaveLength(2);
    expect(new Set(replays.map((r) => r.event_id)).size).toBe(2);
  });

  it("refuses a bad `since` (400), another developer's or the other mode's endpoint (404), and a viewer in the portal (403)", async () => {
    const hook = (await api('POST', '/webhooks/', { url: `${failingUrl}?rules`, events: ['customer.created'], webhook_version: 'v1' })).body.data;
    const now = gateway.clock.now().getTime();
    for (const since of ['yesterday', '2025-03-14', '2025-03-14T09:00:00', new Date(now + 60_000).toISOString(), new Date(now - 31 * 86_400_000).toISOString(), 42]) {
      const refused = await api('POST', `/webhooks/${hook.id}/replay/`, { since });
      expect([refused.status, refused.body.code, Object.keys(refused.body.errors ?? {})]).toEqual([400, 'validation_error', ['since']]);
    }
    expect((await api('POST', `/webhooks/${hook.id}/replay/`, {})).status).toBe(400);

    const other = await createMerchant(gateway);
    // A live key of the same account: the endpoint is a test-mode one.
    const liveKey = (await gateway.app.get(ApiKeysService, { strict: false }).issue({ developerId: account.developerId, mode: 'live', kind: 'secret' })).secret;
    for (const foreign of [other.key, liveKey]) {
      for (const [path, body] of [
        [`/webhooks/${hook.id}/enable/`, undefined],
        [`/webhooks/${hook.id}/replay/`, { since: new Date(now - 1000).toISOString() }],
      ] as const) {
        const missing = await api('POST', path, body, { key: foreign });
        expect([missing.status, missing.body.code]).toEqual([404, 'webhook_not_found']);
      }
    }

    // The portal: the same health and status; a viewer may read it but not enable or replay.
    const portalView = await account.owner.get(`/api/portal/webhooks/${hook.id}`);
    expect(portalView.body.data).toEqual((await api('GET', `/webhooks/${hook.id}/`)).body.data);
    const viewer = (await account.addMember('viewer')).client;
    expect((await viewer.get(`/api/portal/webhooks/${hook.id}`)).body.data.health).toBeDefined();
    for (const path of [`/api/portal/webhooks/${hook.id}/enable`, `/api/portal/webhooks/${hook.id}/replay`]) {
      const denied = await viewer.post(path, { body: { since: new Date(now - 1000).toISOString() } });
      expect([denied.status, denied.body.code]).toEqual([403, 'insufficient_role']);
    }
    const ownerEnable = await account.owner.post(`/api/portal/webhooks/${hook.id}/enable`);
    expect([ownerEnable.status, ownerEnable.body.code]).toEqual([409, 'invalid_state']);
    const ownerReplay = await account.owner.post(`/api/portal/webhooks/${hook.id}/replay`, { body: { since: new Date(now - 1000).toISOString() } });
    expect([ownerReplay.status, ownerReplay.body.data]).toEqual([202, { webhook_id: hook.id, since: new Date(now - 1000).toISOString(), queued: 0 }]);
  });
});
