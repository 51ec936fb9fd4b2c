import { Logger } from '@nestjs/common';
import { loadConfig } from '@gateway/platform';
import { testRedis } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import { createServer, type Server, Socket } from 'node:net';
import { RateLimitStorage } from './rate-limit.storage';

// With REDIS_URL set (CI), an unreachable Redis fails this file. Only without REDIS_URL and without
// a local Redis is the Redis case left out of the run, with a warning (testRedis).
const { url: REDIS_URL, available: redisAvailable } = testRedis('the Redis outage tests');
const itWithRedis = (name: string, test: () => Promise<void>, timeoutMs?: number): void => {
  if (redisAvailable) it(name, test, timeoutMs);
};

const WINDOW_MS = 1000;
const count = (storage: RateLimitStorage, key: string, limit = 3) => storage.increment(key, WINDOW_MS, limit, WINDOW_MS, 'api-key');

describe('RateLimitStorage when Redis fails', () => {
  let warnings: string[];
  beforeEach(() => {
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)));
  });
  afterEach(() => jest.restoreAllMocks());

  it('starts without a reachable Redis, counts per instance so the limit still holds, and warns', async () => {
    const storage = new RateLimitStorage(loadConfig({ REDIS_URL: 'redis://127.0.0.1:1' }));
    await storage.onModuleInit();
    try {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push((await count(storage, 'k')).isBlocked);
      expect(answers).toEqual([false, false, false, true]);
      expect(warnings.length).toBeGreaterThanOrEqual(1);
      expect(warnings[0]).toMatch(/ECONNREFUSED|not reachable|per instance/);
    } finally {
      storage.onApplicationShutdown();
    }
  });

  itWithRedis('counts per instance within the command timeout when Redis hangs, and shares the counters again once it is back', async () => {
    const proxy = await RedisProxy.start(REDIS_URL);
    const prefix = `int-spec:${randomUUID()}:`;
    const storage = new RateLimitStorage(loadConfig({ REDIS_URL: proxy.url, RATE_LIMIT_REDIS_PREFIX: prefix }));
    const direct = new RateLimitStorage(loadConfig({ REDIS_URL, RATE_LIMIT_REDIS_PREFIX: prefix }));
    await storage.onModuleInit();
    await direct.onModuleInit();
    try {
      for (let i = 0; i < 3; i++) await count(storage, 'hang');
      expect((await count(storage, 'hang')).isBlocked).toBe(true);

      proxy.hang();
      const started = Date.now();
      const during = await count(storage, 'local');
      expect(during).toMatchObject({ totalHits: 1, isBlocked: false });
      // The 500 ms command timeout answers; without it a hung Redis never would. The bound leaves a
      // loaded machine room (it is not the timeout's precision that is tested).
      expect(Date.now() - started).toBeLessThan(3000);
      expect(warnings.some((w) => w.includes('counting per instance'))).toBe(true);
      // Later requests count locally at once (no wait on the hung Redis), and the limit holds.
      const quick = Date.now();
      const local = [];
      for (let i = 0; i < 3; i++) local.push((await count(storage, 'local')).isBlocked);
      expect(local).toEqual([false, false, true]);
      expect(Date.now() - quick).toBeLessThan(400);

      proxy.resume();
      // Another instance counts 100 hits in Redis; once this one reads Redis again it sees them
      // (its own memory, polled every 200 ms for at most 10 s, cannot reach 100).
      const probe = (s: RateLimitStorage) => s.increment('shared', 60_000, 1_000, 60_000, 'api-key');
      for (let i = 0; i < 100; i++) await probe(direct);
      await until(async () => (await probe(storage)).totalHits > 100, 10_000, 200);
    } finally {
      storage.onApplicationShutdown();
      direct.onApplicationShutdown();
      await proxy.close();
    }
  }, 20_000);

  itWithRedis('answers a count asked for while an earlier one awaits a hung Redis within its own timeout, not after both', async () => {
    await withStorageBehindProxy(async (proxy, storage) => {
      proxy.hang();
      const first = count(storage, 'first');
      // Asked for in a later turn of the event loop: a call of its own, sent while the first awaits.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = Date.now();
      const second = await count(storage, 'second');
      expect(second).toMatchObject({ totalHits: 1, isBlocked: false });
      // Its own 500 ms timeout (sent only after the first call had timed out, it would take about 950 ms).
      expect(Date.now() - started).toBeLessThan(850);
      await first;
    });
  }, 10_000);
});

describe('RateLimitStorage with Redis', () => {
  itWithRedis('sends the counts asked for in one turn of the event loop as one call, each answered with its own count in the order asked', async () => {
    await withStorageBehindProxy(async (proxy, storage) => {
      proxy.sent = '';
      // Interleaved: 8 counts of a bucket limited to 3 and 4 of one limited to 10.
      const asked = Array.from({ length: 12 }, (_, i) => (i % 3 === 2 ? count(storage, 'roomy', 10) : count(storage, 'tight', 3)));
      const records = await Promise.all(asked);
      const tight = records.filter((_, i) => i % 3 !== 2);
      const roomy = records.filter((_, i) => i % 3 === 2);
      expect(tight.map((r) => r.totalHits)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(tight.map((r) => r.isBlocked)).toEqual([false, false, false, true, true, true, true, true]);
      expect(roomy.map((r) => [r.totalHits, r.isBlocked])).toEqual([
        [1, false],
        [2, false],
        [3, false],
        [4, false],
      ]);
      expect(proxy.sent.match(/EVALSHA/gi)?.length).toBe(1);

      // A count asked for in a later turn goes in a call of its own, and the bucket carries on.
      proxy.sent = '';
      expect(await count(storage, 'tight', 3)).toMatchObject({ totalHits: 9, isBlocked: true });
      expect(proxy.sent.match(/EVALSHA/gi)?.length).toBe(1);
    });
  });
});

/** Runs `test` with a storage counting in Redis through a proxy, connected and its script loaded. */
async function withStorageBehindProxy(test: (proxy: RedisProxy, storage: RateLimitStorage) => Promise<void>): Promise<void> {
  const proxy = await RedisProxy.start(REDIS_URL);
  const storage = new RateLimitStorage(loadConfig({ REDIS_URL: proxy.url, RATE_LIMIT_REDIS_PREFIX: `int-spec:${randomUUID()}:` }));
  await storage.onModuleInit();
  try {
    await count(storage, 'warm');
    await test(proxy, storage);
  } finally {
    storage.onApplicationShutdown();
    await proxy.close();
  }
}

/** A TCP relay in front of the real Redis that can stop relaying, to play a hung server. */
class RedisProxy {
  private hanging = false;
  /** Everything the clients sent through the proxy (RESP commands), since the last reset. */
  sent = '';
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  url = '';

  private constructor(targetHost: string, targetPort: number) {
    this.server = createServer((client) => {
      if (this.hanging) return client.destroy();
      const upstream = new Socket().connect(targetPort, targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('error', () => socket.destroy());
        socket.on('close', () => this.sockets.delete(socket));
      }
      client.on('data', (chunk: Buffer) => {
        if (this.hanging) return;
        this.sent += chunk.toString('latin1');
        upstream.write(chunk);
      });
      upstream.on('data', (chunk) => this.hanging || client.write(chunk));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  static async start(target: string): Promise<RedisProxy> {
    const { hostname, port } = new URL(target);
    const proxy = new RedisProxy(hostname, Number(port || 6379));
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxy.url = `redis://127.0.0.1:${(proxy.server.address() as { port: number }).port}`;
    return proxy;
  }

  /** Keeps connections open but drops every byte: commands get no answer. */
  hang(): void {
    this.hanging = true;
  }

  /** Relays again, on fresh connections (the hung ones are cut, so the client reconnects). */
  resume(): void {
    this.hanging = false;
    for (const socket of this.sockets) socket.destroy();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

async function until(condition: () => Promise<boolean>, timeoutMs = 5000, pollMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
