import { Logger } from '@nestjs/common';
import type { PartitionUpkeepResult, RequestLogPartitionsService } from '@gateway/domain/request-logs';
import { loadConfig, ManualClock } from '@gateway/platform';
import { RequestLogPartitionsJob } from './request-log-partitions.job';

const IDLE: PartitionUpkeepResult = { ran: true, created: [], dropped: [], movedFromDefault: 0, deletedFromPartitions: 0, deletedFromDefault: 0, failures: [] };

class FakePartitionsService {
  readonly calls: Array<{ now: Date; retentionDays: number }> = [];
  result: () => Promise<PartitionUpkeepResult> = () => Promise.resolve(IDLE);

  maintain(now: Date, retentionDays: number): Promise<PartitionUpkeepResult> {
    this.calls.push({ now, retentionDays });
    return this.result();
  }
}

describe('RequestLogPartitionsJob', () => {
  const now = new Date('2025-06-30T12:00:00Z');
  let service: FakePartitionsService;
  let logged: { log: jest.SpyInstance; warn: jest.SpyInstance; error: jest.SpyInstance };

  function job(env: Record<string, string> = {}): RequestLogPartitionsJob {
    return new RequestLogPartitionsJob(service as unknown as RequestLogPartitionsService, new ManualClock(now), loadConfig(env));
  }

  beforeEach(() => {
    service = new FakePartitionsService();
    logged = {
      log: jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined),
      warn: jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined),
      error: jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined),
    };
  });
  afterEach(() => jest.restoreAllMocks());

  it('keeps 90 days by default, at the clock’s time, and says what it changed', async () => {
    service.result = () =>
      Promise.resolve({ ...IDLE, created: ['request_logs_w20250707'], dropped: ['request_logs_w20250324'], deletedFromPartitions: 40, deletedFromDefault: 3 });
    await job().run();
    expect(service.calls).toEqual([{ now, retentionDays: 90 }]);
    expect(logged.log).toHaveBeenCalledWith('Created the request log partitions request_logs_w20250707');
    expect(logged.log).toHaveBeenCalledWith('Dropped the request log partitions request_logs_w20250324 (older than 90 days)');
    expect(logged.log).toHaveBeenCalledWith('Purged 43 request log entries older than 90 days');
  });

  it('says nothing when there was nothing to do', async () => {
    await job().run();
    expect(logged.log).not.toHaveBeenCalled();
    expect(logged.warn).not.toHaveBeenCalled();
  });

  it('honours REQUEST_LOG_RETENTION_DAYS', async () => {
    await job({ REQUEST_LOG_RETENTION_DAYS: '7' }).run();
    expect(service.calls[0].retentionDays).toBe(7);
  });

  it('warns about rows the default partition took, and about each step that could not be done', async () => {
    service.result = () =>
      Promise.resolve({ ...IDLE, movedFromDefault: 12, failures: [{ step: 'drop partition request_logs_w20250324', error: 'canceling statement due to lock timeout' }] });
    await job().run();
    expect(logged.warn).toHaveBeenCalledWith(expect.stringContaining('Moved 12 request log entries out of the default partition'));
    expect(logged.warn).toHaveBeenCalledWith(
      'Request log partition upkeep: could not drop partition request_logs_w20250324 (retried next run): canceling statement due to lock timeout',
    );
  });

  it('runs once at start, without holding the start up', async () => {
    let finish: (r: PartitionUpkeepResult) => void = () => undefined;
    service.result = () => new Promise((resolve) => (finish = resolve));
    const upkeep = job();
    expect(upkeep.onApplicationBootstrap()).toBeUndefined();
    expect(service.calls).toHaveLength(1);
    finish(IDLE);
  });

  it('skips a tick while the previous run is still going', async () => {
    let finish: (r: PartitionUpkeepResult) => void = () => undefined;
    service.result = () => new Promise((resolve) => (finish = resolve));
    const upkeep = job();
    const first = upkeep.run();
    expect(await upkeep.run()).toBeNull();
    finish(IDLE);
    expect(await first).toEqual(IDLE);
    expect(service.calls).toHaveLength(1);
  });

  it('survives a failing run and runs again on the next tick', async () => {
    service.result = () => Promise.reject(new Error('database unavailable'));
    const upkeep = job();
    expect(await upkeep.run()).toBeNull();
    expect(logged.error).toHaveBeenCalledWith('Request log partition upkeep failed', expect.stringContaining('database unavailable'));
    service.result = () => Promise.resolve(IDLE);
    expect(await upkeep.run()).toEqual(IDLE);
  });
});
