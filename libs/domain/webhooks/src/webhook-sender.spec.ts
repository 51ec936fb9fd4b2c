import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { urlAddressProblem, type UrlPolicy } from './url-guard';
import { postWebhook } from './webhook-sender';

const live: UrlPolicy = { mode: 'live', trustedHosts: [] };
const test: UrlPolicy = { mode: 'test', trustedHosts: [] };
/** A public address, only ever returned for a registration check: nothing connects to it. */
const PUBLIC = { address: '93.184.215.14', family: 4 };
const LOOPBACK = { address: '127.0.0.1', family: 4 };

/** A receiver on 127.0.0.1 that counts TCP connections, so "refused without connecting" is observable. */
describe('postWebhook (connect-time address check, one deadline)', () => {
  let server: Server;
  let port: number;
  let connections = 0;
  let requests = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests += 1;
      req.resume();
      req.on('end', () => res.writeHead(200).end('ok'));
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    connections = 0;
    requests = 0;
  });

  /** Answers `first` to the first lookup and `then` to every later one (a DNS rebinding). */
  const rebinding = (first: LookupAddress, then: LookupAddress) => {
    const seen: string[] = [];
    const resolve = jest.fn(async (hostname: string) => {
      seen.push(hostname);
      return [seen.length === 1 ? first : then];
    });
    return resolve;
  };

  it('refuses a host that passed registration but resolves to loopback at connect time, without connecting (live mode)', async () => {
    const url = `https://rebind.gateway.test:${port}/hooks`;
    const resolve = rebinding(PUBLIC, LOOPBACK);
    expect(await urlAddressProblem(url, live, resolve)).toBeNull(); // registration: public, accepted

    const outcome = await postWebhook(url, '{}', {}, { policy: live, timeoutMs: 2000, resolve });
    expect(outcome).toMatchObject({ success: false, statusCode: null, error: 'url must not point to a private, loopback, link-local or reserved address' });
    expect(resolve).toHaveBeenCalledTimes(2);
    expect(resolve).toHaveBeenLastCalledWith('rebind.gateway.test');
    expect(connections).toBe(0);
  });

  it('refuses an IP-literal loopback URL in live mode without connecting (no lookup happens for those)', async () => {
    const resolve = jest.fn();
    const outcome = await postWebhook(`https://127.0.0.1:${port}/hooks`, '{}', {}, { policy: live, timeoutMs: 2000, resolve });
    expect(outcome).toMatchObject({ success: false, error: expect.stringMatching(/must not point to a private/) });
    expect(resolve).not.toHaveBeenCalled();
    expect(connections).toBe(0);
  });

  it('connects to the address the resolver gives at connect time (test mode accepts loopback): the check guards the real connection', async () => {
    const resolve = rebinding(LOOPBACK, LOOPBACK);
    const outcome = await postWebhook(`http://rebind.gateway.test:${port}/hooks`, '{}', {}, { policy: test, timeoutMs: 2000, resolve });
    expect(outcome).toMatchObject({ success: true, statusCode: 200, error: null });
    expect(resolve).toHaveBeenCalledWith('rebind.gateway.test');
    expect(requests).toBe(1);
  });

  it('lets a trusted host through the address check', async () => {
    const resolve = rebinding(LOOPBACK, LOOPBACK);
    const outcome = await postWebhook(`http://hooks.internal.test:${port}/hooks`, '{}', {}, { policy: { mode: 'test', trustedHosts: ['hooks.internal.test'] }, timeoutMs: 2000, resolve });
    expect(outcome.success).toBe(true);
  });

  it('counts a slow name resolution against the deadline: the whole attempt ends at timeoutMs', async () => {
    let release: (found: LookupAddress[]) => void = () => undefined;
    const resolve = jest.fn(() => new Promise<LookupAddress[]>((r) => (release = r)));
    const started = Date.now();
    const outcome = await postWebhook(`http://slow-dns.gateway.test:${port}/hooks`, '{}', {}, { policy: test, timeoutMs: 300, resolve });
    const took = Date.now() - started;
    expect(outcome).toMatchObject({ success: false, statusCode: null, error: 'timed out after 300 ms' });
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(1500);
    // The answer arriving after the deadline opens no connection.
    release([LOOPBACK]);
    await new Promise((r) => setTimeout(r, 100));
    expect(connections).toBe(0);
  });

  it('reports a host that does not resolve', async () => {
    const resolve = jest.fn(async () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.gateway.test'), { code: 'ENOTFOUND' })));
    const outcome = await postWebhook(`http://nowhere.gateway.test:${port}/hooks`, '{}', {}, { policy: test, timeoutMs: 2000, resolve });
    expect(outcome).toMatchObject({ success: false, error: 'url host nowhere.gateway.test does not resolve' });
  });
});
