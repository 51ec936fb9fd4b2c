import { Logger } from '@nestjs/common';
import { loadConfig } from '@gateway/platform';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server, Socket } from 'node:net';
import { RateLimitStorage } from './rate-limit.storage';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const redisAvailable = redisAnswers(REDIS_URL);
if (!redisAvailable) console.warn(`Redis is not reachable at ${REDIS_URL}: the Redis outage tests are SKIPPED.`);
const redisIt = redisAvailable ? it : it.skip;

const WINDOW_MS = 1000;
const count = (storage: RateLimitStorage, key: string, limit = 3) => storage.increment(key, WINDOW_MS, limit, WINDOW_MS, 'api-key');

describe('RateLimitStorage when Redis fails', () => {
  let warnings: string[];
  beforeEach(() => {
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)));
  });
  afterEach(() => jest.restoreAllMocks());

  it('starts without a reachable Redis, lets every request through and warns', async () => {
    const storage = new RateLimitStorage(loadConfig({ REDIS_URL: 'redis://127.0.0.1:1' }));
    await storage.onModuleInit();
    try {
      for (let i = 0; i < 5; i++) expect((await count(storage, 'k')).isBlocked).toBe(false);
      expect(warnings.length).toBeGreaterThanOrEqual(1);
      expect(warnings[0]).toMatch(/ECONNREFUSED|not reachable|not limited/);
    } finally {
      storage.onApplicationShutdown();
    }
  });

  redisIt('fails open within the command timeout when Redis hangs, and limits again once it is back', async () => {
    const proxy = await RedisProxy.start(REDIS_URL);
    const storage = new RateLimitStorage(loadConfig({ REDIS_URL: proxy.url, RATE_LIMIT_REDIS_PREFIX: `int-spec:${randomUUID()}:` }));
    await storage.onModuleInit();
    try {
      for (let i = 0; i < 3; i++) await count(storage, 'hang');
      expect((await count(storage, 'hang')).isBlocked).toBe(true);

      proxy.hang();
      const started = Date.now();
      const during = await count(storage, 'hang');
      expect(during.isBlocked).toBe(false);
      expect(Date.now() - started).toBeLessThan(1500);
      expect(warnings.some((w) => w.includes('requests are not limited'))).toBe(true);

      proxy.resume();
      await until(async () => (await count(storage, 'recovered', 1)).totalHits > 0);
      expect((await count(storage, 'recovered', 1)).isBlocked).toBe(true);
    } finally {
      storage.onApplicationShutdown();
      await proxy.close();
    }
  });
});

/** A TCP relay in front of the real Redis that can stop relaying, to play a hung server. */
class RedisProxy {
  private hanging = false;
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
      client.on('data', (chunk) => this.hanging || upstream.write(chunk));
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

async function until(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Asks Redis for PONG in a child process, so the answer is known before the tests are declared. */
function redisAnswers(url: string): boolean {
  const probe = `
    const { Redis } = require('ioredis');
    const redis = new Redis(process.argv[1], { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => {});
    redis.connect().then(() => redis.ping()).then((r) => { console.log(r); redis.disconnect(); }, () => process.exit(1));
  `;
  const result = spawnSync(process.execPath, ['-e', probe, url], { encoding: 'utf8', timeout: 5000 });
  return result.status === 0 && result.stdout.trim() === 'PONG';
}
