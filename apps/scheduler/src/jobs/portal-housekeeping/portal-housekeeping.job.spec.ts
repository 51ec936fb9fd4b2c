import { Logger } from '@nestjs/common';
import type { HousekeepingResult, IdentityHousekeepingService } from '@gateway/domain/identity';
import { PortalHousekeepingJob } from './portal-housekeeping.job';

describe('PortalHousekeepingJob', () => {
  let outcome: () => Promise<HousekeepingResult>;
  let calls: number;
  let logged: { log: jest.SpyInstance; error: jest.SpyInstance };
  const job = () => new PortalHousekeepingJob({ purge: () => (calls++, outcome()) } as unknown as IdentityHousekeepingService);

  beforeEach(() => {
    calls = 0;
    outcome = () => Promise.resolve({ sessions: 4, tokens: 1, throttles: 0 });
    logged = {
      log: jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined),
      error: jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined),
    };
  });
  afterEach(() => jest.restoreAllMocks());

  it('reports what it purged', async () => {
    expect(await job().run()).toEqual({ sessions: 4, tokens: 1, throttles: 0 });
    expect(logged.log).toHaveBeenCalledWith('Purged 4 portal sessions, 1 link tokens, 0 login-throttle rows');
  });

  it('stays quiet when there was nothing to purge', async () => {
    outcome = () => Promise.resolve({ sessions: 0, tokens: 0, throttles: 0 });
    await job().run();
    expect(logged.log).not.toHaveBeenCalled();
  });

  it('skips a tick while the previous run is still going, and survives a failure', async () => {
    let finish: (r: HousekeepingResult) => void = () => undefined;
    outcome = () => new Promise((resolve) => (finish = resolve));
    const purge = job();
    const first = purge.run();
    expect(await purge.run()).toEqual({ sessions: 0, tokens: 0, throttles: 0 });
    finish({ sessions: 1, tokens: 0, throttles: 0 });
    expect((await first).sessions).toBe(1);
    expect(calls).toBe(1);

    outcome = () => Promise.reject(new Error('database unavailable'));
    expect((await purge.run()).sessions).toBe(0);
    expect(logged.error).toHaveBeenCalledWith('Portal housekeeping failed', expect.stringContaining('database unavailable'));
  });
});
