import { timeOrderedHex } from './time-ordered-hex';

describe('timeOrderedHex', () => {
  it('gives 2 hex digits per byte, led by the milliseconds it was made in', () => {
    const before = Date.now();
    const id = timeOrderedHex(12);
    const after = Date.now();
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    const millis = Number.parseInt(id.slice(0, 12), 16);
    expect(millis).toBeGreaterThanOrEqual(before);
    expect(millis).toBeLessThanOrEqual(after);
    expect(timeOrderedHex(16)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('sorts identifiers made a millisecond apart or more in the order they were made', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(timeOrderedHex(12));
      const made = Date.now();
      while (Date.now() === made) await new Promise((resolve) => setImmediate(resolve));
    }
    expect([...ids].sort()).toEqual(ids);
  });

  it('keeps identifiers made in the same millisecond distinct by their random part', () => {
    const ids = Array.from({ length: 5_000 }, () => timeOrderedHex(12));
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id.slice(12))).size).toBe(ids.length);
  });

  it('refuses fewer than 12 bytes, which would leave fewer than 6 random', () => {
    expect(() => timeOrderedHex(10)).toThrow(RangeError);
    expect(() => timeOrderedHex(12.5)).toThrow(RangeError);
  });
});
