import { randomHex } from './random-hex';

describe('randomHex', () => {
  it('gives 2 hex digits per byte', () => {
    for (const bytes of [1, 8, 10, 12, 32]) expect(randomHex(bytes)).toMatch(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));
  });

  it('never hands out the same bytes twice, across many refills of its pool', () => {
    // 5,000 × 12 bytes: the 4 KiB pool is refilled about 15 times, at offsets that do not divide it.
    const ids = Array.from({ length: 5_000 }, () => randomHex(12));
    expect(new Set(ids).size).toBe(ids.length);
    // Reads of the pool do not overlap: no identifier begins with the last 4 to 11 bytes of the one before.
    const overlapping = ids.slice(1).filter((id, i) => [4, 5, 6, 7, 8, 9, 10, 11].some((k) => id.startsWith(ids[i].slice(-2 * k))));
    expect(overlapping).toEqual([]);
  });

  it('spreads its digits evenly (a stuck or zeroed pool would not)', () => {
    const digits = Array.from({ length: 2_000 }, () => randomHex(16)).join('');
    const counts = new Map<string, number>();
    for (const d of digits) counts.set(d, (counts.get(d) ?? 0) + 1);
    expect(counts.size).toBe(16);
    // 64,000 digits: 4,000 expected each; ±15 % is far outside chance (σ ≈ 61).
    for (const n of counts.values()) expect(Math.abs(n - 4_000)).toBeLessThan(600);
  });

  it('refuses a size it cannot serve', () => {
    for (const bytes of [0, -1, 1.5, 4097, Number.NaN]) expect(() => randomHex(bytes)).toThrow(RangeError);
  });
});
