import { WebhookResolver } from '@gateway/domain/webhooks';
import { randomBytes } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { type TestGateway, startGateway } from './support/gateway';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { WebhookReceiver } from './support/webhook-receiver';

/** Only ever checked at registration: nothing in this file connects to it. */
const PUBLIC = { address: '93.184.215.14', family: 4 };
const LOOPBACK = { address: '127.0.0.1', family: 4 };
const PRIVATE_ADDRESS = 'url must not point to a private, loopback, link-local or reserved address';

jest.setTimeout(90_000);

/**
 * Issue 10, items 2 and 5. Two gateways on one database and one encryption key: `development`
 * with the NODE_ENV=test default (test mode may reach loopback and private networks) and
 * `production` (NODE_ENV=production, WEBHOOK_ALLOW_PRIVATE_TARGETS_IN_TEST_MODE unset, so off).
 * Host names resolve through a resolver the test controls; no traffic leaves 127.0.0.1 and ::1,
 * and no scheduler runs (only test sends, which the API makes itself).
 */
describe('webhook targets: private networks in test mode, what delivery logs show, live-mode address forms', () => {
  const env = { ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, WEBHOOK_TIMEOUT_MS: '5000' };
  let development: TestGateway;
  let production: TestGateway;
  let merchant: TestMerchant;
  let live: string;
  let receiver: WebhookReceiver;
  /** A listener on ::1 that counts connections, so "refused without connecting" is observable there too. */
  let ipv6Listener: Server;
  let ipv6Connections = 0;
  let rebound = false;

  const resolveLike = (gateway: TestGateway) => {
    const resolver = gateway.app.get(WebhookResolver);
    jest.spyOn(resolver, 'resolve').mockImplementation(async (hostname: string): Promise<LookupAddress[]> => {
      if (hostname === 'hooks.gateway.test') return [PUBLIC];
      if (hostname === 'localhost') return [LOOPBACK, { address: '::1', family: 6 }];
      if (hostname === 'loopback.gateway.test' || hostname === 'receiver.gateway.test') return [LOOPBACK];
      if (hostname === 'rebind.gateway.test') {
        const first = !rebound;
        rebound = true;
        return [first ? PUBLIC : LOOPBACK];
      }
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    });
  };

  beforeAll(async () => {
    development = await startGateway(env);
    production = await startGateway({ ...env, NODE_ENV: 'production', WEBHOOK_TRUSTED_HOSTS: 'receiver.gateway.test' });
    resolveLike(development);
    resolveLike(production);
    merchant = await createMerchant(development, { identityVerified: true });
    live = (await merchant.issueKey({ mode: 'live' })).key;
    receiver = new WebhookReceiver();
    await receiver.start();
    ipv6Listener = createServer((socket) => socket.destroy());
    ipv6Listener.on('connection', () => (ipv6Connections += 1));
    await new Promise<void>((resolve) => ipv6Listener.listen(0, '::1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => (ipv6Listener ? ipv6Listener.close(resolve) : resolve(undefined)));
    await receiver?.close();
    await production?.close();
    await development?.close();
  });

  const api = (gateway: TestGateway, method: string, path: string, body?: unknown, key = merchant.key) => http(gateway.baseUrl, method, `/api/v1${path}`, { token: key, body });
  /** Subscribed to an event nothing here emits: only test sends ever reach these endpoints. */
  const register = (gateway: TestGateway, url: string, key = merchant.key) => api(gateway, 'POST', '/webhooks/', { url, events: ['payment.failed'], webhook_version: 'v1' }, key);
  const connectionsSoFar = () => receiver.connections + ipv6Connections;
  const ipv6Port = () => (ipv6Listener.address() as AddressInfo).port;
  /** A port nothing listens on: bound, then closed. */
  const closedPort = async (host: string) => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
  };
  const testSendAndLog = async (gateway: TestGateway, webhookId: string) => {
    const sent = await api(gateway, 'POST', '/webhooks/test/', { webhook_id: webhookId });
    expect(sent.status).toBe(200);
    const logs = await api(gateway, 'GET', `/webhooks/${webhookId}/logs/`);
    // The gateway's clock stands still here, so attempts share created_at: pick this one by id.
    const log = (logs.body.data as Array<{ log_id: string }>).find((l) => l.log_id === sent.body.data.log_id);
    expect(log).toBeDefined();
    return { sent: sent.body.data, log, logText: logs.text };
  };

  describe('with private targets off in test mode (the production default)', () => {
    const privateTargets = () => [
      `http://127.0.0.1:${receiver.port}/hooks`,
      `http://[::1]:${ipv6Port()}/hooks`,
      `http://localhost:${receiver.port}/hooks`,
      `http://loopback.gateway.test:${receiver.port}/hooks`,
      'http://10.0.0.1/hooks',
      'http://192.168.1.5/hooks',
      'http://[fd00::1]/hooks',
      'http://169.254.169.254/latest/meta-data',
    ];

    it('refuses registration of a test-mode endpoint at a loopback or private address, as live mode does, without connecting', async () => {
      const liveRefusal = await register(production, 'https://10.0.0.1/hooks', live);
      expect(liveRefusal.body).toMatchObject({ code: 'validation_error', errors: { url: [PRIVATE_ADDRESS] } });
      const before = connectionsSoFar();
      for (const target of privateTargets()) {
        const res = await register(production, target);
        expect([target, res.status, res.body.code, res.body.errors]).toEqual([target, 400, 'validation_error', liveRefusal.body.errors]);
      }
      expect(connectionsSoFar()).toBe(before);
    });

    it('refuses a PATCH of the url to a loopback or private address, and keeps the old url', async () => {
      const hook = (await register(production, 'https://hooks.gateway.test/h')).body.data;
      for (const target of privateTargets()) {
        const res = await api(production, 'PATCH', `/webhooks/${hook.id}/`, { url: target });
        expect([target, res.status, res.body.code, res.body.errors]).toEqual([target, 400, 'validation_error', { url: [PRIVATE_ADDRESS] }]);
      }
      expect((await api(production, 'GET', `/webhooks/${hook.id}/`)).body.data.url).toBe('https://hooks.gateway.test/h');
    });

    it('refuses at connect time, without connecting, the endpoints registered while private targets were allowed', async () => {
      const targets = [`http://127.0.0.1:${receiver.port}/hooks`, `http://[::1]:${ipv6Port()}/hooks`, 'http://10.0.0.1/hooks'];
      const hooks = [];
      for (const target of targets) {
        const created = await register(development, target);
        expect([target, created.status]).toEqual([target, 201]);
        hooks.push(created.body.data);
      }
      const before = connectionsSoFar();
      for (const hook of hooks) {
        const { sent, log } = await testSendAndLog(production, hook.id);
        expect(sent).toMatchObject({ success: false, status_code: null });
        // `url_not_allowed` is the guard's own class: an attempt at connecting would log
        // `refused`, `timeout` or `connection` instead (10.0.0.1 is never tried).
        expect([hook.url, log]).toEqual([hook.url, expect.objectContaining({ trigger: 'test', success: false, status_code: null, error: 'url_not_allowed', response_body: null })]);
      }
      expect(connectionsSoFar()).toBe(before);
    });

    it('refuses at connect time a host that resolved to a public address at registration and now resolves to loopback (DNS rebinding)', async () => {
      rebound = false;
      const created = await register(production, `http://rebind.gateway.test:${receiver.port}/hooks`);
      expect(created.status).toBe(201);
      const before = connectionsSoFar();
      const { log } = await testSendAndLog(production, created.body.data.id);
      expect(log).toMatchObject({ success: false, status_code: null, error: 'url_not_allowed' });
      expect(connectionsSoFar()).toBe(before);
    });

    it('lets WEBHOOK_TRUSTED_HOSTS through, and keeps their answer (the live-mode rules accept them)', async () => {
      const created = await register(production, `http://receiver.gateway.test:${receiver.port}/hooks`);
      expect(created.status).toBe(201);
      const { sent, log } = await testSendAndLog(production, created.body.data.id);
      expect(sent).toMatchObject({ success: true, status_code: 200 });
      expect(log).toMatchObject({ success: true, status_code: 200, error: null, response_body: 'receiver says 200' });
    });
  });

  describe('with private targets allowed in test mode (the development default)', () => {
    it('delivers to a loopback receiver and logs its status and latency, but not its answer', async () => {
      const hook = (await register(development, `http://127.0.0.1:${receiver.port}/hooks?answer`)).body.data;
      receiver.respond = (h) => (h.url.endsWith('?answer') ? 500 : 200);
      try {
        const { sent, log, logText } = await testSendAndLog(development, hook.id);
        expect(sent).toMatchObject({ success: false, status_code: 500 });
        expect(log).toMatchObject({ success: false, status_code: 500, latency_ms: expect.any(Number), error: 'http_status', response_body: null });
        expect(logText).not.toContain('receiver says');
      } finally {
        receiver.respond = () => 200;
      }
      const { log } = await testSendAndLog(development, hook.id);
      expect(log).toMatchObject({ success: true, status_code: 200, error: null, response_body: null });
    });

    it.each(['127.0.0.1', '[::1]'])('logs a refused connection to %s as `refused`, never the socket message', async (host) => {
      const port = await closedPort(host.replace(/^\[|\]$/g, ''));
      const hook = (await register(development, `http://${host}:${port}/hooks`)).body.data;
      const { sent, log, logText } = await testSendAndLog(development, hook.id);
      expect(sent).toMatchObject({ success: false, status_code: null });
      expect(log).toMatchObject({ success: false, status_code: null, error: 'refused', response_body: null });
      expect(logText).not.toMatch(/ECONNREFUSED|connect |::1|127\.0\.0\.1|hang up/);
      expect(logText).not.toContain(`:${port}`);
    });

    it('still refuses link-local (cloud metadata) and reserved ranges in test mode', async () => {
      for (const target of ['http://169.254.169.254/latest/meta-data', 'http://[fe80::1]/h', 'http://100.64.0.1/h', 'http://[::127.0.0.1]/h', 'http://0.0.0.0/h']) {
        const res = await register(development, target);
        expect([target, res.status, res.body.errors]).toEqual([target, 400, { url: [PRIVATE_ADDRESS] }]);
      }
    });
  });

  describe('live mode accepts global unicast only (issue 10, item 5)', () => {
    const forms = [
      'https://[::127.0.0.1]/',
      'https://[::a9fe:a9fe]/',
      'https://[::10.0.0.1]/',
      'https://[fec0::1]/',
      'https://[64:ff9b:1::a00:1]/',
      'https://[64:ff9b::a00:1]/',
      'https://[::ffff:169.254.169.254]/',
      'https://[2001:db8::1]/',
      'https://[2002:a00:1::1]/',
      'https://[2001::1]/',
      'https://[100::1]/',
      'https://[fd00::1]/',
      'https://192.0.0.8/',
      'https://198.18.0.1/',
      'https://203.0.113.1/',
      'https://240.0.0.1/',
      'https://255.255.255.255/',
    ];

    it.each(forms)('refuses registration of %s', async (target) => {
      const res = await register(development, target, live);
      expect([res.status, res.body.code, res.body.errors]).toEqual([400, 'validation_error', { url: [PRIVATE_ADDRESS] }]);
    });

    it('refuses a PATCH of the url to each of them', async () => {
      const hook = (await register(development, 'https://hooks.gateway.test/h', live)).body.data;
      for (const target of forms) {
        const res = await api(development, 'PATCH', `/webhooks/${hook.id}/`, { url: target }, live);
        expect([target, res.status, res.body.errors]).toEqual([target, 400, { url: [PRIVATE_ADDRESS] }]);
      }
      expect((await api(development, 'GET', `/webhooks/${hook.id}/`, undefined, live)).body.data.url).toBe('https://hooks.gateway.test/h');
    });

    it('accepts a global unicast IPv6 literal (registration only: nothing is sent)', async () => {
      const res = await register(development, 'https://[2606:4700::1111]/h', live);
      expect(res.status).toBe(201);
      expect((await api(development, 'DELETE', `/webhooks/${res.body.data.id}/`, undefined, live)).status).toBe(200);
    });
  });
});
