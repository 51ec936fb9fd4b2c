import { Logger } from '@nestjs/common';
import type { IdempotencyService } from '@gateway/domain/idempotency';
import { loadConfig, ManualClock } from '@gateway/platform';
import { IdempotencyPurgeJob } from './idempotency-purge.job';

class FakeIdempotencyService {
  readonly cutoffs: Date[] = [];
  result: () => Promise<number> = () => Promise.resolve(3);

  purgeOlderThan(cutoff: Date): Promise<number> {
    this.cutoffs.push(cutoff);
    return this.result();
  }
}

describe('IdempotencyPurgeJob', () => {
  const now = new Date('2025-03-10T12:00:00Z');
  let service: FakeIdempotencyService;

  function job(env: Record<string, string> = {}): IdempotencyPurgeJob {
    return new IdempotencyPurgeJob(service as unknown as IdempotencyService, new ManualClock(now), loadConfig(env));
  }

  let logged: { log: jest.SpyInstance; error: jest.SpyInstance };

  beforeEach(() => {
    service = new FakeIdempotencyService();
    logged = {
      log: jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined),
      error: jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined),
    };
  });
  afterEach(() => jest.restoreAllMocks());

  it('purges keys claimed more than 24 hours ago by default', async () => {
    expect(await job().run()).toBe(3);
    expect(service.cutoffs).toEqual([new Date('2025-03-09T12:00:00Z')]);
    expect(logged.log).toHaveBeenCalledWith('Purged 3 idempotency keys claimed before 2025-03-09T12:00:00.000Z');
  });

  it('honours IDEMPOTENCY_RETENTION_HOURS', async () => {
    await job({ IDEMPOTENCY_RETENTION_HOURS: '72' }).run();
    expect(service.cutoffs).toEqual([new Date('2025-03-07T12:00:00Z')]);
  });

  it('skips a tick while the previous run is still going', async () => {
    let finish: (n: number) => void = () => undefined;
    service.result = () => new Promise<number>((resolve) => (finish = resolve));
    const purge = job();
    const first = purge.run();
    expect(await purge.run()).toBe(0);
    finish(5);
    expect(await first).toBe(5);
    expect(service.cutoffs).toHaveLength(1);
  });

  it('survives a failing purge and runs again on the next tick', async () => {
    service.result = () => Promise.reject(new Error('database unavailable'));
    const purge = job();
    expect(await purge.run()).toBe(0);
    expect(logged.error).toHaveBeenCalledWith('Idempotency key purge failed', expect.stringContaining('database unavailable'));
    service.result = () => Promise.resolve(1);
    expect(await purge.run()).toBe(1);
  });
});
