import { randomBytes } from 'node:crypto';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { Client } from 'pg';
import { testServerUrl } from '../testing/test-database';
import { waitFor } from '../testing/wait-for';
import { PgListener } from './pg-listener';

/**
 * A loopback TCP proxy in front of PostgreSQL that can go quiet: `freeze()` stops passing bytes on
 * the connections it holds, both ways, without closing them — what a peer gone behind a firewall
 * or a frozen server looks like to the client. Connections opened after it pass again.
 */
class FreezingProxy {
  private readonly server: Server;
  private readonly pairs: Array<[Socket, Socket]> = [];
  private readonly frozen: Socket[] = [];

  constructor(target: URL) {
    this.server = createServer((inbound) => {
      const outbound = connect(Number(target.port || 5432), target.hostname);
      inbound.pipe(outbound).pipe(inbound);
      inbound.on('error', () => outbound.destroy());
      outbound.on('error', () => inbound.destroy());
      this.pairs.push([inbound, outbound]);
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  freeze(): void {
    for (const [inbound, outbound] of this.pairs.splice(0)) {
      inbound.unpipe(outbound);
      outbound.unpipe(inbound);
      inbound.pause();
      outbound.pause();
      this.frozen.push(inbound, outbound);
    }
  }

  async close(): Promise<void> {
    for (const socket of [...this.frozen, ...this.pairs.flat()]) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('PgListener on PostgreSQL', () => {
  const server = new URL(testServerUrl());
  const channel = `test_listener_${randomBytes(4).toString('hex')}`;
  let notifier: Client;

  beforeAll(async () => {
    notifier = new Client({ connectionString: server.toString() });
    await notifier.connect();
  });
  afterAll(() => notifier?.end());

  const notify = (payload: string) => notifier.query('SELECT pg_notify($1, $2)', [channel, payload]);

  function listenerTo(port: number, options: { timeoutMs: number; heartbeatMs: number }) {
    const heard: string[] = [];
    const lost: string[] = [];
    let listenings = 0;
    const url = new URL(server.toString());
    url.host = `127.0.0.1:${port}`;
    const listener = new PgListener({
      connectionString: url.toString(),
      channel,
      ...options,
      onNotification: (payload) => heard.push(payload),
      onListening: () => listenings++,
      onLost: (message) => lost.push(message),
    });
    return { listener, heard, lost, listenings: () => listenings };
  }

  it('notices a connection that went quiet without closing, by its heartbeat, and listens again on a new one', async () => {
    const proxy = new FreezingProxy(server);
    const port = await proxy.listen();
    const { listener, heard, lost, listenings } = listenerTo(port, { timeoutMs: 500, heartbeatMs: 200 });
    try {
      listener.start();
      await waitFor(() => listener.isListening, { what: 'the first LISTEN', timeoutMs: 5_000, intervalMs: 20 });
      await notify('before');
      await waitFor(() => heard.includes('before'), { what: 'the first notification', timeoutMs: 5_000, intervalMs: 20 });

      proxy.freeze();
      const frozenAt = Date.now();
      await notify('while frozen');
      // A heartbeat (every 200 ms) that gets no answer within 500 ms: the loss is told well within a second or two.
      await waitFor(() => lost.length > 0, { what: 'the loss to be noticed', timeoutMs: 5_000, intervalMs: 20 });
      expect(Date.now() - frozenAt).toBeLessThan(2_000);
      expect(lost[0]).toMatch(new RegExp(`^${channel}: listening connection lost: no answer \\(heartbeat took over 500 ms\\); next attempt in 1 s$`));

      // The retry opens a new connection through the proxy, which passes it, and listens again.
      await waitFor(() => listenings() === 2 && listener.isListening, { what: 'listening again', timeoutMs: 5_000, intervalMs: 20 });
      await notify('after');
      await waitFor(() => heard.includes('after'), { what: 'a notification on the new connection', timeoutMs: 5_000, intervalMs: 20 });
      expect(heard).toEqual(['before', 'after']);
    } finally {
      await listener.close();
      await proxy.close();
    }
  });

  it('gives up opening a connection that never answers within its timeout, and tries again with backoff', async () => {
    // Accepts connections and never says a word: PostgreSQL's start-up reply never comes.
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { listener, lost } = listenerTo((silent.address() as AddressInfo).port, { timeoutMs: 300, heartbeatMs: 200 });
    try {
      const startedAt = Date.now();
      listener.start();
      await waitFor(() => lost.length > 0, { what: 'the first attempt to give up', timeoutMs: 5_000, intervalMs: 20 });
      expect(Date.now() - startedAt).toBeLessThan(2_000);
      expect(lost[0]).toMatch(/listening connection lost: cannot listen \(.*timeout.*\); next attempt in 1 s$/i);
      // The second attempt waits out its backoff (1 s), and the next one doubles it.
      await waitFor(() => lost.length > 1, { what: 'the second attempt to give up', timeoutMs: 5_000, intervalMs: 20 });
      expect(lost[1]).toMatch(/next attempt in 2 s$/);
      expect(listener.isListening).toBe(false);
    } finally {
      await listener.close();
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('closes within its timeout even when the connection has gone quiet', async () => {
    const proxy = new FreezingProxy(server);
    const { listener } = listenerTo(await proxy.listen(), { timeoutMs: 500, heartbeatMs: 60_000 });
    try {
      listener.start();
      await waitFor(() => listener.isListening, { what: 'the LISTEN', timeoutMs: 5_000, intervalMs: 20 });
      proxy.freeze();
      const closingAt = Date.now();
      await listener.close();
      expect(Date.now() - closingAt).toBeLessThan(1_500);
      expect(listener.isListening).toBe(false);
    } finally {
      await proxy.close();
    }
  });
});
