import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { urlAddressProblem, type UrlPolicy } from './url-guard';
import { postWebhook } from './webhook-sender';

const live: UrlPolicy = { mode: 'live', trustedHosts: [], allowPrivateInTestMode: false };
/** Test mode with loopback allowed (the development default). */
const test: UrlPolicy = { mode: 'test', trustedHosts: [], allowPrivateInTestMode: true };
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
    expect(outcome).toMatchObject({ success: false, statusCode: null, error: 'url_not_allowed', responseBody: null });
    expect(resolve).toHaveBeenCalledTimes(2);
    expect(resolve).toHaveBeenLastCalledWith('rebind.gateway.test');
    expect(connections).toBe(0);
  });

  it('refuses an IP-literal loopback URL in live mode without connecting (no lookup happens for those)', async () => {
    const resolve = jest.fn();
    const outcome = await postWebhook(`https://127.0.0.1:${port}/hooks`, '{}', {}, { policy: live, timeoutMs: 2000, resolve });
    expect(outcome).toMatchObject({ success: false, error: 'url_not_allowed' });
    expect(resolve).not.toHaveBeenCalled();
    expect(connections).toBe(0);
  });

  it('connects to the address the resolver gives at connect time (test mode accepts loopback): the check guards the real connection', async () => {
    const resolve = rebinding(LOOPBACK, LOOPBACK);
    const outcome = await postWebhook(`http://rebind.gateway.test:${port}/hooks`, '{}', {}, { policy: test, timeoutMs: 2000, resolve });
    expect(outcome).toMatchObject({ success: true, statusCode: 200, error: null });
    expect(outcome.responseBody).toBeNull(); // a loopback peer: status and latency, never its answer
    expect(resolve).toHaveBeenCalledWith('rebind.gateway.test');
    expect(requests).toBe(1);
  });

  it('lets a trusted host through the address check with loopback off, and keeps its answer (the live-mode rules accept it)', async () => {
    const resolve = rebinding(LOOPBACK, LOOPBACK);
    const policy: UrlPolicy = { mode: 'test', trustedHosts: ['hooks.internal.test'], allowPrivateInTestMode: false };
    const outcome = await postWebhook(`http://hooks.internal.test:${port}/hooks`, '{}', {}, { policy, timeoutMs: 2000, resolve });
    expect(outcome).toMatchObject({ success: true, statusCode: 200, responseBody: 'ok' });
  });

  it('refuses a loopback target in test mode when the operator does not allow it, without connecting', async () => {
    const strict: UrlPolicy = { ...test, allowPrivateInTestMode: false };
    for (const url of [`http://127.0.0.1:${port}/hooks`, `http://[::ffff:127.0.0.1]:${port}/hooks`, `http://localhost.gateway.test:${port}/hooks`]) {
      const outcome = await postWebhook(url, '{}', {}, { policy: strict, timeoutMs: 2000, resolve: rebinding(LOOPBACK, LOOPBACK) });
      expect([url, outcome.error]).toEqual([url, 'url_not_allowed']);
    }
    expect(connections).toBe(0);
  });

  it('counts a slow name resolution against the deadline: the whole attempt ends at timeoutMs', async () => {
    let release: (found: LookupAddress[]) => void = () => undefined;
    const resolve = jest.fn(() => new Promise<LookupAddress[]>((r) => (release = r)));
    const started = Date.now();
    const outcome = await postWebhook(`http://slow-dns.gateway.test:${port}/hooks`, '{}', {}, { policy: test, timeoutMs: 300, resolve });
    const took = Date.now() - started;
    expect(outcome).toMatchObject({ success: false, statusCode: null, error: 'timeout' });
    // Without the deadline the attempt would wait for the resolver forever; the upper bound only
    // leaves a loaded machine room.
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(4000);
    // The answer arriving after the deadline opens no connection: a later attempt, sent after it,
    // arrives and is the only connection the receiver ever saw.
    release([LOOPBACK]);
    const later = await postWebhook(`http://127.0.0.1:${port}/hooks`, '{}', {}, { policy: test, timeoutMs: 2000, resolve: async () => [LOOPBACK] });
    expect(later).toMatchObject({ success: true });
    expect(connections).toBe(1);
  });

  it('reuses a kept-alive connection for the next attempt under the same rules, and opens its own under other rules', async () => {
    const resolve = async () => [LOOPBACK];
    const url = `http://pooled.gateway.test:${port}/hooks`;
    expect(await postWebhook(url, '{}', {}, { policy: test, timeoutMs: 2000, resolve })).toMatchObject({ success: true });
    expect(await postWebhook(url, '{}', {}, { policy: test, timeoutMs: 2000, resolve })).toMatchObject({ success: true });
    expect([requests, connections]).toEqual([2, 1]);
    // Same host, other rules (a trusted host list): never a socket opened under the first rules.
    const other: UrlPolicy = { ...test, trustedHosts: ['hooks.internal.test'] };
    expect(await postWebhook(url, '{}', {}, { policy: other, timeoutMs: 2000, resolve })).toMatchObject({ success: true });
    expect([requests, connections]).toEqual([3, 2]);
  });

  it('reports a host that does not resolve', async () => {
    const resolve = jest.fn(async () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.gateway.test'), { code: 'ENOTFOUND' })));
    const outcome = await postWebhook(`http://nowhere.gateway.test:${port}/hooks`, '{}', {}, { policy: test, timeoutMs: 2000, resolve });
    expect(outcome).toMatchObject({ success: false, error: 'dns', responseBody: null });
  });
});

/** Real sockets on loopback that fail in each way a receiver can; the log gets a class, never the socket's words. */
describe('postWebhook (failures as short classes)', () => {
  const servers: Array<Server | NetServer> = [];
  const sockets: Socket[] = [];
  const listen = async <S extends Server | NetServer>(server: S, host = '127.0.0.1'): Promise<number> => {
    servers.push(server);
    server.on('connection', (socket: Socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    return (server.address() as AddressInfo).port;
  };
  afterAll(async () => {
    sockets.forEach((socket) => socket.destroy());
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });
  const send = (url: string) => postWebhook(url, '{}', {}, { policy: test, timeoutMs: 3000, resolve: async () => [LOOPBACK] });

  /** A port nothing listens on: bound, then closed. */
  const closedPort = async (host: string) => {
    const server = createNetServer();
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
  };

  it.each(['127.0.0.1', '[::1]'])('a refused connection to %s is `refused`, with no address or port in the error', async (host) => {
    const port = await closedPort(host.replace(/^\[|\]$/g, ''));
    const outcome = await send(`http://${host}:${port}/hooks`);
    expect(outcome).toMatchObject({ success: false, statusCode: null, error: 'refused', responseBody: null });
    expect(outcome.detail).toMatch(/ECONNREFUSED/); // for the operator's debug log only
  });

  it('a TLS handshake with something that does not speak TLS is `tls`', async () => {
    const port = await listen(createServer((_req, res) => res.end('plain')));
    expect(await send(`https://127.0.0.1:${port}/hooks`)).toMatchObject({ success: false, statusCode: null, error: 'tls' });
  });

  it('an answer that is not HTTP is `invalid_response`', async () => {
    const port = await listen(createNetServer((socket) => socket.end('HELLO FROM SSH\r\n\r\n')));
    expect(await send(`http://127.0.0.1:${port}/hooks`)).toMatchObject({ success: false, statusCode: null, error: 'invalid_response' });
  });

  it('a connection closed without an answer ("socket hang up") is `connection`', async () => {
    const port = await listen(createNetServer((socket) => socket.once('data', () => socket.destroy())));
    const outcome = await send(`http://127.0.0.1:${port}/hooks`);
    expect(outcome).toMatchObject({ success: false, statusCode: null, error: 'connection' });
    expect(outcome.detail).toMatch(/hang up|ECONNRESET/);
  });

  it('sends again on a new connection, once, when a kept-alive connection fails on reuse before any answer (the receiver had closed it)', async () => {
    let answered = 0;
    const port = await listen(
      createNetServer((socket) => {
        let served = false;
        socket.on('data', () => {
          // A second request on a connection that already served one: the receiver had dropped it (reset).
          if (served) return void socket.destroy();
          served = true;
          answered += 1;
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
        });
      }),
    );
    expect(await send(`http://127.0.0.1:${port}/hooks`)).toMatchObject({ success: true });
    expect(await send(`http://127.0.0.1:${port}/hooks`)).toMatchObject({ success: true, statusCode: 200, error: null });
    expect(answered).toBe(2);
  });

  it('keeps an answer PostgreSQL could not store as storable text (NUL, a surrogate pair cut at the limit)', async () => {
    const port = await listen(createServer((_req, res) => res.end(`a\u0000b${'x'.repeat(1020)}\u{1F600}`)));
    const trusted: UrlPolicy = { ...test, trustedHosts: ['hooks.internal.test'] };
    const outcome = await postWebhook(`http://hooks.internal.test:${port}/hooks`, '{}', {}, { policy: trusted, timeoutMs: 3000, resolve: async () => [LOOPBACK] });
    expect(outcome.responseBody).toBe(`a\ufffdb${'x'.repeat(1020)}\ufffd`);
  });

  it('a non-2xx answer is `http_status` with its status; a loopback body is not kept', async () => {
    const port = await listen(createServer((_req, res) => res.writeHead(302, { location: 'http://127.0.0.1:1/' }).end('secret admin page')));
    expect(await send(`http://127.0.0.1:${port}/hooks`)).toEqual({ success: false, statusCode: 302, error: 'http_status', responseBody: null, latencyMs: expect.any(Number), detail: 'receiver answered 302' });
  });
});
