import type { Wake } from '../database/notification-fan-out';
import { longPoll } from './long-poll';

/** A notification source the test fires by hand. */
function notifier() {
  let wakers: Array<() => void> = [];
  return {
    arm: (): Wake => {
      let wake!: () => void;
      const notified = new Promise<void>((resolve) => (wake = resolve));
      wakers.push(wake);
      return { notified, dispose: () => (wakers = wakers.filter((w) => w !== wake)) };
    },
    fire: () => wakers.forEach((wake) => wake()),
    get armed() {
      return wakers.length;
    },
  };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((r) => setTimeout(r, 1));
};

describe('longPoll', () => {
  it('reads once without a wait', async () => {
    let reads = 0;
    expect(await longPoll({ read: async () => ++reads, hasNews: () => false, waitMs: 0, recheckMs: 1000 })).toBe(1);
    expect(reads).toBe(1);
  });

  it('answers right after the notification, not at the next re-check, and leaves no waiter armed', async () => {
    const source = notifier();
    let news = false;
    const started = performance.now();
    const answer = longPoll({ read: async () => news, hasNews: (n) => n, waitMs: 10_000, recheckMs: 5_000, arm: source.arm });
    await until(() => source.armed === 1);
    news = true;
    source.fire();
    expect(await answer).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(source.armed).toBe(0);
  });

  it('after a notification whose news is not readable yet, re-checks quickly instead of waiting out recheckMs', async () => {
    const source = notifier();
    let reads = 0;
    const answer = longPoll({ read: async () => ++reads, hasNews: (n) => n >= 4, waitMs: 10_000, recheckMs: 5_000, arm: source.arm });
    await until(() => source.armed === 1);
    const notifiedAt = performance.now();
    source.fire();
    expect(await answer).toBe(4);
    // 20 + 40 ms of quick re-checks, far from the 5 s re-check.
    expect(performance.now() - notifiedAt).toBeLessThan(1_000);
  });

  it('gives up when the wait is over, or at once when the signal fires, answering the last read', async () => {
    const started = performance.now();
    expect(await longPoll({ read: async () => 'empty', hasNews: () => false, waitMs: 150, recheckMs: 50 })).toBe('empty');
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);

    const stop = new AbortController();
    let paused = 0;
    const answer = longPoll({ read: async () => 'empty', hasNews: () => false, waitMs: 60_000, recheckMs: 30_000, signals: [undefined, stop.signal], onPause: (p) => (paused += p ? 1 : -1) });
    await until(() => paused === 1);
    stop.abort();
    expect(await answer).toBe('empty');
    expect(paused).toBe(0);
  });
});
