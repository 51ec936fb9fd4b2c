import type { ThrottlerStorage } from '@nestjs/throttler';
import { type CounterRecord, FailOpenStorage } from './fail-open-storage';

class ScriptedCounters implements ThrottlerStorage {
  failure: Error | null = null;
  readonly record: CounterRecord = { totalHits: 3, timeToExpire: 1, isBlocked: false, timeToBlockExpire: 0 };

  async increment(): Promise<CounterRecord> {
    if (this.failure) throw this.failure;
    return this.record;
  }
}

describe('FailOpenStorage', () => {
  let counters: ScriptedCounters;
  let warnings: string[];
  let now: number;
  let storage: FailOpenStorage;
  beforeEach(() => {
    counters = new ScriptedCounters();
    warnings = [];
    now = 1_000_000;
    storage = new FailOpenStorage(counters, (message) => warnings.push(message), () => now);
  });

  it('returns the counters’ answer while they work, without warning', async () => {
    await expect(storage.increment('k', 1000, 5, 1000, 'ip')).resolves.toBe(counters.record);
    expect(warnings).toEqual([]);
  });

  it('lets the request through when the counters fail, with a warning naming the cause', async () => {
    counters.failure = new Error('Stream isn\'t writeable and enableOfflineQueue options is false');
    const record = await storage.increment('k', 1000, 5, 1000, 'ip');
    expect(record).toEqual({ totalHits: 0, timeToExpire: 1, isBlocked: false, timeToBlockExpire: 0 });
    expect(warnings).toEqual([expect.stringContaining('requests are not limited: Stream isn\'t writeable')]);
  });

  it('warns at most once per 10 seconds during an outage, then says how many warnings it held back', async () => {
    counters.failure = new Error('Command timed out');
    for (let i = 0; i < 50; i++) await storage.increment('k', 1000, 5, 1000, 'ip');
    expect(warnings).toHaveLength(1);

    now += 9_999;
    await storage.increment('k', 1000, 5, 1000, 'ip');
    expect(warnings).toHaveLength(1);

    now += 1;
    await storage.increment('k', 1000, 5, 1000, 'ip');
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toContain('(50 similar warnings suppressed)');
  });
});
