import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import type { CounterRecord } from './fail-open-storage';

/** A counter update slower than this is given up on, and the request let through. */
const COMMAND_TIMEOUT_MS = 500;
const CONNECT_TIMEOUT_MS = 2000;

/**
 * The counters in Redis, shared by every API instance using the same REDIS_URL and prefix. Counting
 * is `@nest-lab/throttler-storage-redis`'s atomic Lua script; this class owns the connection and
 * tunes it so that a Redis outage makes counting fail fast (for the caller to let the request
 * through) rather than queue requests behind reconnection attempts.
 */
export class RedisRateLimitCounters implements ThrottlerStorage {
  private readonly redis: Redis;
  private readonly counters: ThrottlerStorageRedisService;

  constructor(url: string, onConnectionError: (error: Error) => void) {
    this.redis = new Redis(url, {
      lazyConnect: true,
      // Commands while disconnected fail at once instead of waiting for a reconnection.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: CONNECT_TIMEOUT_MS,
      // Closing waits this long for a socket to end; one that never connected holds the process
      // for the whole wait, so keep it short (nothing is waited for: pending counts are dropped).
      disconnectTimeout: 200,
    });
    // ioredis keeps reconnecting in the background; each failed attempt is reported here.
    this.redis.on('error', onConnectionError);
    this.counters = new ThrottlerStorageRedisService(this.redis);
  }

  /** First connection; a failure is thrown, and reconnection continues in the background. */
  async connect(): Promise<void> {
    await this.redis.connect();
  }

  increment(key: string, ttl: number, limit: number, blockDuration: number, bucket: string): Promise<CounterRecord> {
    return this.counters.increment(key, ttl, limit, blockDuration, bucket);
  }

  close(): void {
    this.redis.disconnect();
  }
}
