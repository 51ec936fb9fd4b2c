import { ScanRunner } from './scan-runner';

describe('ScanRunner', () => {
  const errors: unknown[][] = [];
  const runner = () => new ScanRunner({ error: (...args: unknown[]) => errors.push(args) }, 'Scan failed', -1);

  beforeEach(() => (errors.length = 0));

  it('returns what the scan returns', async () => {
    expect(await runner().run(() => Promise.resolve(7))).toBe(7);
  });

  it('skips a tick while the previous run is still going, then runs again once it has finished', async () => {
    let finish: (n: number) => void = () => undefined;
    let calls = 0;
    const scans = runner();
    const first = scans.run(() => (calls++, new Promise<number>((resolve) => (finish = resolve))));
    expect(await scans.run(() => (calls++, Promise.resolve(2)))).toBe(-1);
    finish(1);
    expect(await first).toBe(1);
    expect(await scans.run(() => (calls++, Promise.resolve(3)))).toBe(3);
    expect(calls).toBe(2);
  });

  it('logs a failure with its stack, answers the idle result and runs again on the next tick', async () => {
    const scans = runner();
    expect(await scans.run(() => Promise.reject(new Error('database unavailable')))).toBe(-1);
    expect(errors).toEqual([['Scan failed', expect.stringContaining('database unavailable')]]);
    expect(await scans.run(() => Promise.resolve(4))).toBe(4);
  });
});
