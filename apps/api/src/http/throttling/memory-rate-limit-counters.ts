import type { CounterRecord } from './fallback-storage';

interface Window {
  hits: number;
  /** Epoch ms at which the current window's count starts again from zero. */
  endsAt: number;
  /** Epoch ms until which the bucket refuses (0 = open). */
  blockedUntil: number;
}

/** Idle windows are dropped this often, so memory follows the clients active in the last minute. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * The counters in this process's memory, with exactly the semantics of the Redis script
 * (redis-rate-limit-counters.ts): a fixed window that starts at its first hit, every request
 * counted (refused ones too), and a block of `blockDuration` from the moment the limit is passed.
 *
 * O(1) and synchronous per request: one Map lookup and a few integer operations. (The throttler's
 * own in-memory store keeps one timestamp per hit and filters that array on every request, which
 * at a high limit cost more than the rest of the guard chain together.)
 */
export class MemoryRateLimitCounters {
  private readonly buckets = new Map<string, Map<string, Window>>();
  private sweepTimer?: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {}

  increment(key: string, ttl: number, limit: number, blockDuration: number, bucket: string): CounterRecord {
    const now = this.now();
    const windows = this.windowsOf(bucket);
    let window = windows.get(key);
    if (!window) {
      window = { hits: 0, endsAt: 0, blockedUntil: 0 };
      windows.set(key, window);
    }
    if (window.endsAt <= now) {
      window.hits = 0;
      window.endsAt = now + ttl;
    }
    window.hits++;
    let blockedFor = 0;
    if (window.blockedUntil > now) {
      blockedFor = window.blockedUntil - now;
    } else if (window.hits > limit) {
      window.blockedUntil = now + blockDuration;
      blockedFor = blockDuration;
    }
    return {
      totalHits: window.hits,
      timeToExpire: Math.ceil((window.endsAt - now) / 1000),
      isBlocked: blockedFor > 0,
      timeToBlockExpire: Math.ceil(blockedFor / 1000),
    };
  }

  close(): void {
    clearInterval(this.sweepTimer);
    this.buckets.clear();
  }

  private windowsOf(bucket: string): Map<string, Window> {
    let windows = this.buckets.get(bucket);
    if (!windows) {
      windows = new Map();
      this.buckets.set(bucket, windows);
      this.startSweep();
    }
    return windows;
  }

  private startSweep(): void {
    if (this.sweepTimer) return;
    this.sweepTimer = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  private sweep(): void {
    const now = this.now();
    for (const windows of this.buckets.values()) {
      for (const [key, window] of windows) if (window.endsAt <= now && window.blockedUntil <= now) windows.delete(key);
    }
  }
}
