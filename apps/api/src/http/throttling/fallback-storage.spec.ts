import type { ThrottlerStorage } from '@nestjs/throttler';
import { type CounterRecord, FallbackStorage } from './fallback-storage';
import { MemoryRateLimitCounters } from './memory-rate-limit-counters';

class ScriptedCounters implements ThrottlerStorage {
  failure: Error | null = null;
  calls = 0;
  readonly record: CounterRecord = { totalHits: 3, timeToExpire: 1, isBlocked: false, timeToBlockExpire: 0 };

  async increment(): Promise<CounterRecord> {
    this.calls++;
    if (this.failure) throw this.failure;
    return this.record;
  }
}

describe('FallbackStorage', () => {
  let shared: ScriptedCounters;
  let warnings: string[];
  let now: number;
  let storage: FallbackStorage;
  const count = (key = 'k', limit = 5) => storage.increment(key, 1000, limit, 1000, 'ip');
  beforeEach(() => {
    shared = new ScriptedCounters();
    warnings = [];
    now = 1_000_000;
    storage = new FallbackStorage(shared, new MemoryRateLimitCounters(() => now), (message) => warnings.push(message), () => now);
  });

  it('returns the shared counters’ answer while they work, without warning', async () => {
    await expect(count()).resolves.toBe(shared.record);
    expect(warnings).toEqual([]);
  });

  it('counts in this instance when the shared counters fail, so the limit still holds, with a warning naming the cause', async () => {
    shared.failure = new Error("Stream isn't writeable and enableOfflineQueue options is false");
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await count('k', 3));
    expect(answers.map((a) => [a.totalHits, a.isBlocked])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, true],
    ]);
    expect(warnings).toEqual([expect.stringContaining("counting per instance: Stream isn't writeable")]);
  });

  it('leaves the shared counters alone for 5 s after a failure (no request waits on a dead Redis), then tries them again', async () => {
    shared.failure = new Error('Command timed out');
    await count();
    for (let i = 0; i < 20; i++) await count();
    expect(shared.calls).toBe(1);

    now += 5_000;
    shared.failure = null;
    await expect(count()).resolves.toBe(shared.record);
    expect(shared.calls).toBe(2);
  });

  it('warns at most once per 10 seconds during an outage, then says how many warnings it held back', async () => {
    shared.failure = new Error('Command timed out');
    for (let i = 0; i < 3; i++) {
      await count();
      now += 5_000; // each retry of the shared counters fails again
    }
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toContain('(1 similar warnings suppressed)');
  });
});
