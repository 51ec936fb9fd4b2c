import { MemoryRateLimitCounters } from './memory-rate-limit-counters';

describe('MemoryRateLimitCounters (same semantics as the Redis script)', () => {
  let now: number;
  let counters: MemoryRateLimitCounters;
  const hit = (key = 'k', limit = 3) => counters.increment(key, 1000, limit, 1000, 'api-key');
  beforeEach(() => {
    now = 1_000_000;
    counters = new MemoryRateLimitCounters(() => now);
  });
  afterEach(() => counters.close());

  it('counts within a 1-second window starting at the first hit, then blocks past the limit for one window', () => {
    expect([hit(), hit(), hit()].map((r) => [r.totalHits, r.isBlocked])).toEqual([[1, false], [2, false], [3, false]]);
    now += 400;
    expect(hit()).toEqual({ totalHits: 4, timeToExpire: 1, isBlocked: true, timeToBlockExpire: 1 });
    // The window restarts at 1000 ms, but the block set at 400 ms lasts until 1400 ms; refused hits count.
    now += 700;
    expect(hit()).toMatchObject({ totalHits: 1, isBlocked: true, timeToBlockExpire: 1 });
    now += 301;
    expect(hit()).toMatchObject({ totalHits: 2, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('keeps buckets and keys apart', () => {
    for (let i = 0; i < 3; i++) hit('a');
    expect(hit('a').isBlocked).toBe(true);
    expect(hit('b')).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(counters.increment('a', 1000, 3, 1000, 'ip')).toMatchObject({ totalHits: 1, isBlocked: false });
  });
});
