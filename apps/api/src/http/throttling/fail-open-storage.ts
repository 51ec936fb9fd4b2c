import type { ThrottlerStorage } from '@nestjs/throttler';

/** What counting one request returns (the package does not export the record type by name). */
export type CounterRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** At most one warning per interval, so an outage cannot flood the log at request rate. */
const WARNING_INTERVAL_MS = 10_000;

/**
 * Lets a request through, with a logged warning, when its counter cannot be updated (Redis down,
 * slow or failing). Rate limiting protects the API; it must not be the reason the API is down.
 */
export class FailOpenStorage implements ThrottlerStorage {
  private lastWarningAt = Number.NEGATIVE_INFINITY;
  private suppressedWarnings = 0;

  constructor(
    private readonly counters: ThrottlerStorage,
    private readonly warn: (message: string) => void,
    // Wall time only paces log lines; the business Clock (which tests move) has no say here.
    private readonly now: () => number = Date.now,
  ) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, bucket: string): Promise<CounterRecord> {
    try {
      return await this.counters.increment(key, ttl, limit, blockDuration, bucket);
    } catch (error) {
      this.warnThrottled(`rate-limit counters unavailable, requests are not limited: ${describe(error)}`);
      return { totalHits: 0, timeToExpire: Math.ceil(ttl / 1000), isBlocked: false, timeToBlockExpire: 0 };
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
