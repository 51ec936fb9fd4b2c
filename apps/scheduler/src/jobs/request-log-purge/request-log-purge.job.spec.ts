import { Logger } from '@nestjs/common';
import type { RequestLogsService } from '@gateway/domain/request-logs';
import { loadConfig, ManualClock } from '@gateway/platform';
import { RequestLogPurgeJob } from './request-log-purge.job';

class FakeRequestLogsService {
  readonly cutoffs: Date[] = [];
  result: () => Promise<number> = () => Promise.resolve(12);

  purgeOlderThan(cutoff: Date): Promise<number> {
    this.cutoffs.push(cutoff);
    return this.result();
  }
}

describe('RequestLogPurgeJob', () => {
  const now = new Date('2025-06-30T12:00:00Z');
  let service: FakeRequestLogsService;
  let logged: { log: jest.SpyInstance; error: jest.SpyInstance };

  function job(env: Record<string, string> = {}): RequestLogPurgeJob {
    return new RequestLogPurgeJob(service as unknown as RequestLogsService, new ManualClock(now), loadConfig(env));
  }

  beforeEach(() => {
    service = new FakeRequestLogsService();
    logged = {
      log: jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined),
      error: jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined),
    };
  });
  afterEach(() => jest.restoreAllMocks());

  it('purges entries older than 90 days by default', async () => {
    expect(await job().run()).toBe(12);
    expect(service.cutoffs).toEqual([new Date('2025-04-01T12:00:00Z')]);
    expect(logged.log).toHaveBeenCalledWith('Purged 12 request log entries created before 2025-04-01T12:00:00.000Z');
  });

  it('honours REQUEST_LOG_RETENTION_DAYS', async () => {
    await job({ REQUEST_LOG_RETENTION_DAYS: '7' }).run();
    expect(service.cutoffs).toEqual([new Date('2025-06-23T12:00:00Z')]);
  });

  it('refuses a retention of zero days at start-up', () => {
    expect(() => loadConfig({ REQUEST_LOG_RETENTION_DAYS: '0' })).toThrow(/REQUEST_LOG_RETENTION_DAYS/);
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
    expect(logged.error).toHaveBeenCalledWith('Request log purge failed', expect.stringContaining('database unavailable'));
    service.result = () => Promise.resolve(1);
    expect(await purge.run()).toBe(1);
  });
});
