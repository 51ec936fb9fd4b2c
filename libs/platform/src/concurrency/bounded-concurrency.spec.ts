import { BoundedConcurrency, ConcurrencyQueueFullError } from './bounded-concurrency';

/** A task that runs until the test lets it finish. */
function gate(): { task: () => Promise<string>; started: () => boolean; finish: (value: string) => void } {
  let begun = false;
  let finish: (value: string) => void = () => undefined;
  const done = new Promise<string>((resolve) => (finish = resolve));
  return {
    task: () => {
      begun = true;
      return done;
    },
    started: () => begun,
    finish: (value) => finish(value),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('BoundedConcurrency', () => {
  it('runs at most maxRunning tasks at once and starts waiters in arrival order as slots free', async () => {
    const limiter = new BoundedConcurrency(2, 5);
    const gates = [gate(), gate(), gate(), gate()];
    const results = gates.map((g) => limiter.run(g.task));
    await settle();
    expect(gates.map((g) => g.started())).toEqual([true, true, false, false]);
    expect(limiter.load).toEqual({ running: 2, waiting: 2 });

    gates[1].finish('b');
    await settle();
    expect(gates.map((g) => g.started())).toEqual([true, true, true, false]);

    gates[0].finish('a');
    gates[2].finish('c');
    await settle();
    expect(gates[3].started()).toBe(true);
    gates[3].finish('d');
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c', 'd']);
    expect(limiter.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses at once, without running it, a task that finds every slot busy and the queue full', async () => {
    const limiter = new BoundedConcurrency(1, 1);
    const running = gate();
    const queued = gate();
    const refused = gate();
    const first = limiter.run(running.task);
    expect(limiter.hasRoom).toBe(true);
    const second = limiter.run(queued.task);
    expect(limiter.hasRoom).toBe(false);
    await expect(limiter.run(refused.task)).rejects.toBeInstanceOf(ConcurrencyQueueFullError);
    expect(refused.started()).toBe(false);

    running.finish('1');
    queued.finish('2');
    await expect(Promise.all([first, second])).resolves.toEqual(['1', '2']);
  });

  it('frees the slot of a task that fails', async () => {
    const limiter = new BoundedConcurrency(1, 0);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limiter.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});
