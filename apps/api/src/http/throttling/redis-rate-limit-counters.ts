import { Redis } from 'ioredis';
import type { CounterRecord } from './fallback-storage';

/** A counter update slower than this is given up on, and the request let through. */
const COMMAND_TIMEOUT_MS = 500;
const CONNECT_TIMEOUT_MS = 2000;

/**
 * Atomic updates of buckets, one per pair of keys, in the order given: for each, the script of
 * `@nest-lab/throttler-storage-redis` (credits to wyattjoh's rate-limit-redis), with the same keys,
 * so instances of older and newer versions sharing a Redis count together. Fixed window from the
 * first hit; past the limit, a block key refuses for `blockDuration`; every request counts.
 * KEYS: each count's hit key, then its block key. ARGV: each count's ttl, limit and block duration
 * (ms). Answers four integers a count: total hits, the window's ms left, blocked (1/0), the block's
 * ms left. Two counts of one bucket in a call are counted one after the other, as two calls would.
 */
const INCREMENT_SCRIPT = `
local answers = {}
for i = 1, #KEYS / 2 do
  local hitKey = KEYS[2 * i - 1]
  local blockKey = KEYS[2 * i]
  local ttl = tonumber(ARGV[3 * i - 2])
  local limit = tonumber(ARGV[3 * i - 1])
  local blockDuration = tonumber(ARGV[3 * i])
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
  answers[#answers + 1] = totalHits
  answers[#answers + 1] = timeToExpire
  answers[#answers + 1] = isBlocked and 1 or 0
  answers[#answers + 1] = timeToBlockExpire
end
return answers
`.trim();

/** Counts sent in one call at most (a bound on the command's size; more go in further calls). */
const MAX_COUNTS_PER_CALL = 256;

/** One count waiting for its call's answer. */
interface PendingCount {
  hitKey: string;
  blockKey: string;
  ttl: number;
  limit: number;
  blockDuration: number;
  resolve(record: CounterRecord): void;
  reject(error: Error): void;
}

type RateLimitRedis = Redis & {
  /** INCREMENT_SCRIPT by its SHA: the number of keys, the keys, then the arguments. */
  rateLimitIncrements(numberOfKeys: number, ...keysThenArguments: Array<string | number>): Promise<unknown>;
};

/**
 * The counters in Redis, shared by every API instance using the same REDIS_URL and prefix. This
 * class owns the connection and tunes it so that a Redis outage makes counting fail fast (for the
 * caller to let the request through) rather than queue requests behind reconnection attempts.
 * The script is sent by its SHA (EVALSHA, loaded once), not as its text with every call.
 *
 * Counts asked for in the same turn of the event loop (the requests whose bytes arrived together)
 * go to Redis as one call of the script: one command for this process to build, write and read,
 * and one for Redis to parse and run, where each count was one of each. Every instance's counts go
 * to the one Redis, on its one thread, so the same Redis serves more instances. A call's keys
 * belong to many buckets, so the counters need one Redis server (with replicas if wanted), not a
 * Redis Cluster, which refuses a script whose keys lie in several slots (docs/scaling.md).
 */
export class RedisRateLimitCounters {
  private readonly redis: RateLimitRedis;
  /** The counts asked for since the last call was sent. */
  private waiting: PendingCount[] = [];

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
    }) as RateLimitRedis;
    this.redis.defineCommand('rateLimitIncrements', { lua: INCREMENT_SCRIPT });
    // ioredis keeps reconnecting in the background; each failed attempt is reported here.
    this.redis.on('error', onConnectionError);
  }

  /** First connection; a failure is thrown, and reconnection continues in the background. */
  async connect(): Promise<void> {
    await this.redis.connect();
  }

  /**
   * Counts one request in the bucket `key` of `bucket`. The count is sent once the event loop has
   * run the callbacks of this turn's input (setImmediate), with the others asked for meanwhile.
   */
  increment(key: string, ttl: number, limit: number, blockDuration: number, bucket: string): Promise<CounterRecord> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => this.sendWaiting());
      this.waiting.push({ hitKey: `{${key}:${bucket}}:hits`, blockKey: `{${key}:${bucket}}:blocked`, ttl, limit, blockDuration, resolve, reject });
    });
  }

  close(): void {
    this.redis.disconnect();
  }

  private sendWaiting(): void {
    const counts = this.waiting;
    this.waiting = [];
    for (let from = 0; from < counts.length; from += MAX_COUNTS_PER_CALL) void this.send(counts.slice(from, from + MAX_COUNTS_PER_CALL));
  }

  /** One call of the script for `counts`; each is answered with its own record, or all fail together. */
  private async send(counts: PendingCount[]): Promise<void> {
    const keys: string[] = [];
    const settings: number[] = [];
    for (const count of counts) {
      keys.push(count.hitKey, count.blockKey);
      settings.push(count.ttl, count.limit, count.blockDuration);
    }
    let answers: number[];
    try {
      answers = checkedAnswers(await answeredInTime(this.redis.rateLimitIncrements(keys.length, ...keys, ...settings)), counts.length);
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      for (const count of counts) count.reject(failure);
      return;
    }
    for (let i = 0; i < counts.length; i++) {
      counts[i].resolve({
        totalHits: answers[4 * i],
        timeToExpire: Math.ceil(answers[4 * i + 1] / 1000),
        isBlocked: answers[4 * i + 2] === 1,
        timeToBlockExpire: Math.ceil(answers[4 * i + 3] / 1000),
      });
    }
  }
}

/** The script's answer for `counted` counts: four integers each. */
function checkedAnswers(result: unknown, counted: number): number[] {
  if (!Array.isArray(result) || result.length !== 4 * counted || !result.every((value) => typeof value === 'number')) {
    throw new TypeError(`unexpected answer from the rate-limit script: ${JSON.stringify(result)}`);
  }
  return result as number[];
}

/**
 * The command's answer, or a timeout error once COMMAND_TIMEOUT_MS have passed since the call. The
 * call is made in the turn of the event loop that asked for its counts, so no count waits much
 * longer than that for its answer; ioredis's own timeout starts only once the command is written.
 */
function answeredInTime<T>(command: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Rate-limit count not answered within ${COMMAND_TIMEOUT_MS} ms`)), COMMAND_TIMEOUT_MS);
  });
  return Promise.race([command, late]).finally(() => clearTimeout(timer));
}
