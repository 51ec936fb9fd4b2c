import { randomBytes } from 'node:crypto';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { Client } from 'pg';
import { testServerUrl } from '../testing/test-database';
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

/** Waits for `condition`, polling, at most `ms`. */
async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
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
      await until(() => listener.isListening, 5_000, 'the first LISTEN');
      await notify('before');
      await until(() => heard.includes('before'), 5_000, 'the first notification');

      proxy.freeze();
      const frozenAt = Date.now();
      await notify('while frozen');
      // A heartbeat (every 200 ms) that gets no answer within 500 ms: the loss is told well within a second or two.
      await until(() => lost.length > 0, 5_000, 'the loss to be noticed');
      expect(Date.now() - frozenAt).toBeLessThan(2_000);
      expect(lost[0]).toMatch(new RegExp(`^${channel}: listening connection lost: no answer \\(heartbeat took over 500 ms\\); next attempt in 1 s$`));

      // The retry opens a new connection through the proxy, which passes it, and listens again.
      await until(() => listenings() === 2 && listener.isListening, 5_000, 'listening again');
      await notify('after');
      await until(() => heard.includes('after'), 5_000, 'a notification on the new connection');
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
      await until(() => lost.length > 0, 5_000, 'the first attempt to give up');
      expect(Date.now() - startedAt).toBeLessThan(2_000);
      expect(lost[0]).toMatch(/listening connection lost: cannot listen \(.*timeout.*\); next attempt in 1 s$/i);
      // The second attempt waits out its backoff (1 s), and the next one doubles it.
      await until(() => lost.length > 1, 5_000, 'the second attempt to give up');
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
      await until(() => listener.isListening, 5_000, 'the LISTEN');
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
