import { WebhookResolver } from '@gateway/domain/webhooks';
import { randomBytes } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { type TestGateway, startGateway } from '../support/gateway';
import { http } from '../support/http';
import { createMerchant, type TestMerchant } from '../support/merchants';
import { OutboundConnections } from './outbound-connections';

jest.setTimeout(120_000);

const PUBLIC = { address: '93.184.215.14', family: 4 };
const v4 = (address: string) => ({ address, family: 4 });
const v6 = (address: string) => ({ address, family: 6 });

/**
 * Reliability row 9 (SSRF): hostile URL forms a live-mode endpoint must never reach, registered
 * through the real API with a live key, then — for the forms that pass registration by design
 * (a name that changes its answer, a receiver that redirects) — sent. A counting listener on
 * 127.0.0.1 is the target every loopback form points at, and every TCP connection this process
 * opens is recorded: none may reach the target or leave the machine. Host names resolve through
 * the gateway's resolver, answered here, so no DNS query leaves the machine either.
 */
describe('reliability: SSRF — hostile webhook URLs are refused in live mode without any connection', () => {
  let gateway: TestGateway;
  let merchant: TestMerchant;
  let live: string;
  let target: Server;
  let targetConnections = 0;
  let port: number;
  let rebindLookups = 0;
  let redirector: HttpServer;
  const outbound = new OutboundConnections();

  const answers = (hostname: string): LookupAddress[] => {
    const name = hostname.replace(/\.$/, '').toLowerCase();
    const table: Record<string, LookupAddress[]> = {
      localhost: [v4('127.0.0.1'), v6('::1')],
      'loopback.hooks.test': [v4('127.0.0.1')],
      'mapped.hooks.test': [v6('::ffff:127.0.0.1')],
      'v6-loopback.hooks.test': [v6('::1')],
      'private.hooks.test': [v4('10.0.0.1')],
      'metadata.hooks.test': [v4('169.254.169.254')],
      'carrier-nat.hooks.test': [v4('100.64.0.1')],
      'unique-local.hooks.test': [v6('fd00::1')],
      'mixed.hooks.test': [PUBLIC, v4('127.0.0.1')],
      'zero.hooks.test': [v4('0.0.0.0')],
    };
    if (name === 'rebind.hooks.test') return [rebindLookups++ === 0 ? PUBLIC : v4('127.0.0.1')];
    const found = table[name];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  };

  beforeAll(async () => {
    target = createServer((socket) => {
      targetConnections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    port = (target.address() as AddressInfo).port;
    redirector = createHttpServer((_, res) => res.writeHead(302, { location: `http://127.0.0.1:${port}/` }).end());
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));

    gateway = await startGateway({ ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, WEBHOOK_TIMEOUT_MS: '3000' });
    jest.spyOn(gateway.app.get(WebhookResolver), 'resolve').mockImplementation(async (hostname: string) => answers(hostname));
    merchant = await createMerchant(gateway, { identityVerified: true });
    live = (await merchant.issueKey({ mode: 'live' })).key;
    outbound.start();
  });
  afterAll(async () => {
    outbound.stop();
    await gateway?.close();
    await new Promise((resolve) => target?.close(resolve));
    await new Promise((resolve) => redirector?.close(resolve));
  });

  const api = (method: string, path: string, body: unknown, key = live) => http(gateway.baseUrl, method, `/api/v1${path}`, { token: key, body });
  const register = (url: string, key = live) => api('POST', '/webhooks/', { url, events: ['payment.failed'], webhook_version: 'v1' }, key);

  /** Forms of 127.0.0.1:<port> and its neighbours, private networks, metadata, userinfo and parser tricks, and names that resolve to them. */
  const hostileForms = (): string[] => {
    const p = port;
    return [
      `https://127.0.0.1:${p}/`,
      `https://127.1:${p}/`,
      `https://127.0.1:${p}/`,
      `https://2130706433:${p}/`,
      `https://0x7f000001:${p}/`,
      `https://0x7f.0x0.0x0.0x1:${p}/`,
      `https://0x7f.1:${p}/`,
      `https://0177.0.0.1:${p}/`,
      `https://0177.0000.0000.0001:${p}/`,
      `https://017700000001:${p}/`,
      `https://127.000.000.001:${p}/`,
      `https://127.0.0.1.:${p}/`,
      `https://127.255.255.254:${p}/`,
      `https://0:${p}/`,
      `https://0.0.0.0:${p}/`,
      `https://[::1]:${p}/`,
      `https://[0:0:0:0:0:0:0:1]:${p}/`,
      `https://[0000:0000:0000:0000:0000:0000:0000:0001]:${p}/`,
      `https://[::ffff:127.0.0.1]:${p}/`,
      `https://[::ffff:7f00:1]:${p}/`,
      `https://[0:0:0:0:0:ffff:127.0.0.1]:${p}/`,
      `https://[::127.0.0.1]:${p}/`,
      `https://[::]:${p}/`,
      `https://[64:ff9b::127.0.0.1]:${p}/`,
      `https://[2002:7f00:1::]:${p}/`,
      'https://10.0.0.1/',
      'https://012.0.0.1/',
      'https://0xa.0.0.1/',
      'https://167772161/',
      'https://172.16.0.1/',
      'https://192.168.0.1/',
      'https://0xc0.0xa8.0.1/',
      'https://100.64.0.1/',
      'https://169.254.169.254/latest/meta-data/',
      'https://2852039166/latest/meta-data/',
      'https://0xa9fea9fe/latest/meta-data/',
      'https://[::ffff:169.254.169.254]/latest/meta-data/',
      'https://[fd00::1]/',
      'https://[fe80::1]/',
      `https://hooks.example.com@127.0.0.1:${p}/`,
      `https://127.0.0.1:${p}@hooks.example.com/`,
      `https://user:pass@hooks.example.com/`,
      `https://hooks.example.com%40127.0.0.1:${p}/`,
      `https://127.0.0.1:${p}#@hooks.example.com/`,
      `https://127.0.0.1:${p}\\@hooks.example.com/`,
      `https://localhost:${p}/`,
      `https://LOCALHOST:${p}/`,
      `https://localhost.:${p}/`,
      `https://loopback.hooks.test:${p}/`,
      `https://mapped.hooks.test:${p}/`,
      `https://v6-loopback.hooks.test:${p}/`,
      `https://zero.hooks.test:${p}/`,
      `https://mixed.hooks.test:${p}/`,
      'https://private.hooks.test/',
      'https://metadata.hooks.test/latest/meta-data/',
      'https://carrier-nat.hooks.test/',
      'https://unique-local.hooks.test/',
      `http://hooks.example.com:${p}/`,
    ];
  };

  it('refuses every hostile form at registration (400 validation_error on url), and at an update of a good endpoint', async () => {
    const forms = hostileForms();
    expect(forms.length).toBeGreaterThanOrEqual(40);
    const good = await register('https://hooks.example.com/ok');
    // hooks.example.com is not in the resolver's table: a good-looking host must at least resolve.
    expect(good.body).toMatchObject({ code: 'validation_error', errors: { url: [expect.stringMatching(/resolve/)] } });
    jest.spyOn(gateway.app.get(WebhookResolver), 'resolve').mockImplementation(async (hostname: string) => (hostname === 'public.hooks.test' ? [PUBLIC] : answers(hostname)));
    const endpoint = await register('https://public.hooks.test/ok');
    expect(endpoint.status).toBe(201);

    const accepted: string[] = [];
    for (const url of forms) {
      const created = await register(url);
      if (created.status !== 400 || created.body.code !== 'validation_error' || !created.body.errors?.url) accepted.push(`${url} → ${created.status} ${created.text}`);
      const updated = await api('PATCH', `/webhooks/${endpoint.body.data.id}/`, { url });
      if (updated.status !== 400 || !updated.body.errors?.url) accepted.push(`PATCH ${url} → ${updated.status} ${updated.text}`);
    }
    expect(accepted).toEqual([]);
    expect((await api('GET', `/webhooks/${endpoint.body.data.id}/`, undefined)).body.data.url).toBe('https://public.hooks.test/ok');
    expect(targetConnections).toBe(0);
    expect(outbound.leavingTheMachine()).toEqual([]);
    expect(outbound.to(port)).toEqual([]);
  });

  it('refuses at connect time, without connecting, a name that resolved to a public address at registration and to loopback since', async () => {
    const created = await register(`https://rebind.hooks.test:${port}/`);
    expect(created.status).toBe(201);
    const sent = await api('POST', '/webhooks/test/', { webhook_id: created.body.data.id });
    expect(sent.body.data).toMatchObject({ success: false, status_code: null });
    const logs = await api('GET', `/webhooks/${created.body.data.id}/logs/`, undefined);
    expect(logs.body.data[0]).toMatchObject({ success: false, error: 'url_not_allowed', response_body: null });
    expect(rebindLookups).toBeGreaterThanOrEqual(2);
    expect(targetConnections).toBe(0);
    expect(outbound.leavingTheMachine()).toEqual([]);
  });

  it('does not follow a redirect: a receiver answering 302 to the target is a failed attempt, and the target is never reached', async () => {
    // Test mode, where the development default lets an endpoint on this machine be registered.
    const redirectorPort = (redirector.address() as AddressInfo).port;
    const created = await register(`http://127.0.0.1:${redirectorPort}/hooks`, merchant.key);
    expect(created.status).toBe(201);
    const sent = await api('POST', '/webhooks/test/', { webhook_id: created.body.data.id }, merchant.key);
    expect(sent.body.data).toMatchObject({ success: false, status_code: 302 });
    // The recorder sees the one connection that was made (so its silence above means something).
    expect(outbound.to(redirectorPort)).toEqual([{ address: '127.0.0.1', port: redirectorPort }]);
    expect(targetConnections).toBe(0);
    expect(outbound.to(port)).toEqual([]);
  });
});
