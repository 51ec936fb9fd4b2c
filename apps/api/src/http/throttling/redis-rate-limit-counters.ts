import { Redis } from 'ioredis';
import type { CounterRecord } from './fallback-storage';

/** A counter update slower than this is given up on, and the request let through. */
const COMMAND_TIMEOUT_MS = 500;
const CONNECT_TIMEOUT_MS = 2000;

/**
 * One atomic update of a bucket: the script of `@nest-lab/throttler-storage-redis` (credits to
 * wyattjoh's rate-limit-redis), with the same keys, so instances of older and newer versions
 * sharing a Redis count together. Fixed window from the first hit; past the limit, a block key
 * refuses for `blockDuration`; every request counts.
 */
const INCREMENT_SCRIPT = `
local hitKey = KEYS[1]
local blockKey = KEYS[2]
local ttl = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local blockDuration = tonumber(ARGV[4])
local totalHits = redis.call('INCR', hitKey)
local timeToExpire = redis.call('PTTL', hitKey)
if timeToExpire <= 0 then
  redis.call('PEXPIRE', hitKey, ttl)
  timeToExpire = ttl
end
local isBlocked = redis.call('GET', blockKey)
local timeToBlockExpire = 0
if isBlocked then
  timeToBlockExpire = redis.call('PTTL', blockKey)
elseif totalHits > limit then
  redis.call('SET', blockKey, 1, 'PX', blockDuration)
  isBlocked = '1'
  timeToBlockExpire = blockDuration
end
if isBlocked and timeToBlockExpire <= 0 then
  redis.call('DEL', blockKey)
  redis.call('SET', hitKey, 1, 'PX', ttl)
  totalHits = 1
  timeToExpire = ttl
  isBlocked = false
end
return { totalHits, timeToExpire, isBlocked and 1 or 0, timeToBlockExpire }
`.trim();

type RateLimitRedis = Redis & {
  rateLimitIncrement(hitKey: string, blockKey: string, bucket: string, ttl: number, limit: number, blockDuration: number): Promise<unknown>;
};

/**
 * The counters in Redis, shared by every API instance using the same REDIS_URL and prefix. This
 * class owns the connection and tunes it so that a Redis outage makes counting fail fast (for the
 * caller to let the request through) rather than queue requests behind reconnection attempts.
 * The script is sent by its SHA (EVALSHA, loaded once), not as 700 bytes of text per request.
 */
export class RedisRateLimitCounters {
  private readonly redis: RateLimitRedis;

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
      // Every request counts one or two buckets; the counts that requests ask for in the same
      // turn of the event loop, or while an earlier batch awaits its answer, go to Redis in one
      // write and come back in one read. A socket write is the dearest part of a count (on
      // loopback it runs the receiver's TCP stack too), for this process and for Redis alike.
      enableAutoPipelining: true,
    }) as RateLimitRedis;
    this.redis.defineCommand('rateLimitIncrement', { numberOfKeys: 2, lua: INCREMENT_SCRIPT });
    // ioredis keeps reconnecting in the background; each failed attempt is reported here.
    this.redis.on('error', onConnectionError);
  }

  /** First connection; a failure is thrown, and reconnection continues in the background. */
  async connect(): Promise<void> {
    await this.redis.connect();
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, bucket: string): Promise<CounterRecord> {
    const result = await answeredInTime(this.redis.rateLimitIncrement(`{${key}:${bucket}}:hits`, `{${key}:${bucket}}:blocked`, bucket, ttl, limit, blockDuration));
    if (!Array.isArray(result) || result.length !== 4 || !result.every((value) => typeof value === 'number')) {
      throw new TypeError(`unexpected answer from the rate-limit script: ${JSON.stringify(result)}`);
    }
    const [totalHits, timeToExpire, isBlocked, timeToBlockExpire] = result as number[];
    return {
      totalHits,
      timeToExpire: Math.ceil(timeToExpire / 1000),
      isBlocked: isBlocked === 1,
      timeToBlockExpire: Math.ceil(timeToBlockExpire / 1000),
    };
  }

  close(): void {
    this.redis.disconnect();
  }
}

/**
 * The command's answer, or a timeout error once COMMAND_TIMEOUT_MS have passed since the call.
 * ioredis starts a command's timer when it sends the command, and with auto-pipelining a count
 * asked for while a batch awaits a hung Redis is only sent once that batch has timed out: without
 * this it would wait twice the timeout.
 */
function answeredInTime<T>(command: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Rate-limit count not answered within ${COMMAND_TIMEOUT_MS} ms`)), COMMAND_TIMEOUT_MS);
  });
  return Promise.race([command, late]).finally(() => clearTimeout(timer));
}
