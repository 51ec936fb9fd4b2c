import { CallBatcher } from './call-batcher';

describe('CallBatcher', () => {
  it('runs the calls of one turn together, and those made while a batch runs as the next batch', async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const batcher = new CallBatcher<number, string>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items.map((i) => `r${i}`);
    }, 10);
    const first = [batcher.call(1), batcher.call(2)];
    await new Promise((resolve) => setImmediate(resolve));
    const second = [batcher.call(3), batcher.call(4), batcher.call(5)];
    expect(batches).toEqual([[1, 2]]);
    release();
    expect(await Promise.all([...first, ...second])).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    expect(batches).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
  });

  it('never puts more than maxBatch calls in one batch', async () => {
    const sizes: number[] = [];
    const batcher = new CallBatcher<number, number>(async (items) => (sizes.push(items.length), items), 2);
    expect(await Promise.all([1, 2, 3, 4, 5].map((i) => batcher.call(i)))).toEqual([1, 2, 3, 4, 5]);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('fails every call of a batch that throws, and runs the next batch', async () => {
    let runs = 0;
    const batcher = new CallBatcher<number, number>(async (items) => {
      if (runs++ === 0) throw new Error('database went away');
      return items;
    }, 10);
    const failed = [batcher.call(1), batcher.call(2)];
    await expect(failed[0]).rejects.toThrow('database went away');
    await expect(failed[1]).rejects.toThrow('database went away');
    expect(await batcher.call(3)).toBe(3);
  });
});
