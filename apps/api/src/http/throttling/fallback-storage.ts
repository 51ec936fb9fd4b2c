import type { ThrottlerStorage } from '@nestjs/throttler';

/** What counting one request returns (the package does not export the record type by name). */
export type CounterRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** Counters that answer synchronously and cannot fail (this process's memory). */
export interface LocalCounters {
  increment(key: string, ttl: number, limit: number, blockDuration: number, bucket: string): CounterRecord;
}

/** At most one warning per interval, so an outage cannot flood the log at request rate. */
const WARNING_INTERVAL_MS = 10_000;
/**
 * After a failure the shared counters are left alone this long: every request in an outage would
 * otherwise wait for the command timeout (500 ms) before being counted locally.
 */
const RETRY_SHARED_AFTER_MS = 5_000;

/**
 * Counts in the shared counters (Redis) while they answer; when they fail (down, slow, erroring)
 * counts in this instance's memory instead, with a logged warning, so every limit still holds on
 * each instance — N instances then let through at most N times the limit, never everything. Rate
 * limiting must not be the reason the API is down, nor the reason it is left unprotected.
 */
export class FallbackStorage implements ThrottlerStorage {
  private lastWarningAt = Number.NEGATIVE_INFINITY;
  private suppressedWarnings = 0;
  private sharedRetryAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly shared: ThrottlerStorage,
    private readonly local: LocalCounters,
    private readonly warn: (message: string) => void,
    // Wall time only paces retries and log lines; the business Clock (which tests move) has no say here.
    private readonly now: () => number = Date.now,
  ) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, bucket: string): Promise<CounterRecord> {
    if (this.now() < this.sharedRetryAt) return this.local.increment(key, ttl, limit, blockDuration, bucket);
    try {
      return await this.shared.increment(key, ttl, limit, blockDuration, bucket);
    } catch (error) {
      this.sharedRetryAt = this.now() + RETRY_SHARED_AFTER_MS;
      this.warnThrottled(`shared rate-limit counters unavailable, counting per instance: ${describe(error)}`);
      return this.local.increment(key, ttl, limit, blockDuration, bucket);
    }
  }

  /** Also used for connection errors reported outside any request. */
  warnThrottled(message: string): void {
    const now = this.now();
    if (now - this.lastWarningAt < WARNING_INTERVAL_MS) {
      this.suppressedWarnings++;
      return;
    }
    const suppressed = this.suppressedWarnings ? ` (${this.suppressedWarnings} similar warnings suppressed)` : '';
    this.lastWarningAt = now;
    this.suppressedWarnings = 0;
    this.warn(`${message}${suppressed}`);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
