import fc from 'fast-check';
import { allocateByRatios, allocateByShares, allocateEvenly, Amount, InvalidShareError, Share } from './index';

const a = (text: string) => Amount.parse(text);
const strings = (amounts: Amount[]) => amounts.map((amount) => amount.toString());

describe('splitting by shares: parts round down, the remainder stays', () => {
  it('a 0.3333 share of 100.00 is 33.33 and the 0.01 rounding remainder stays (with the unshared 66.66: 66.67)', () => {
    const { parts, remainder } = allocateByShares(a('100.00'), ['0.3333']);
    expect(strings(parts)).toEqual(['33.33']);
    expect(remainder.toString()).toBe('66.67');
  });

  it('three equal shares of 100.00 leave 0.01 in the wallet', () => {
    const { parts, remainder } = allocateByShares(a('100.00'), ['0.3333', '0.3333', '0.3333']);
    expect(strings(parts)).toEqual(['33.33', '33.33', '33.33']);
    expect(remainder.toString()).toBe('0.01');
  });

  it('shares of exactly 1 on an amount they divide leave nothing: 0.1/0.2/0.7 of 50.00 → 5.00, 10.00, 35.00', () => {
    const { parts, remainder } = allocateByShares(a('50.00'), [0.1, 0.2, 0.7]);
    expect(strings(parts)).toEqual(['5.00', '10.00', '35.00']);
    expect(remainder.isZero()).toBe(true);
  });

  it('rounding is down, never to nearest: a 0.5 share of 0.05 is 0.02, a 0.9999 share of 0.99 is 0.98', () => {
    expect(strings(allocateByShares(a('0.05'), ['0.5']).parts)).toEqual(['0.02']);
    const { parts, remainder } = allocateByShares(a('0.99'), ['0.9999']);
    expect(strings(parts)).toEqual(['0.98']);
    expect(remainder.toString()).toBe('0.01');
  });

  it('shares summing to 1.0001 are refused and nothing is allocated', () => {
    expect(() => allocateByShares(a('100.00'), ['0.5', '0.5001'])).toThrow(expect.objectContaining({ reason: 'sum-above-one' }));
  });

  it('a share with five decimals is refused', () => {
    expect(() => allocateByShares(a('100.00'), ['0.33333'])).toThrow(InvalidShareError);
  });

  it('no shares: everything is remainder', () => {
    const { parts, remainder } = allocateByShares(a('12.34'), []);
    expect(parts).toEqual([]);
    expect(remainder.toString()).toBe('12.34');
  });

  it('a negative total (a reversal) splits as the mirror image, remainder negative too', () => {
    const { parts, remainder } = allocateByShares(a('-100.00'), [Share.parse('0.3333'), Share.parse('0.3333'), Share.parse('0.3333')]);
    expect(strings(parts)).toEqual(['-33.33', '-33.33', '-33.33']);
    expect(remainder.toString()).toBe('-0.01');
  });

  // Cut points in (0, 10000] → consecutive differences are positive basis-point shares whose sum is the last cut (≤ 1).
  const sharesUpToOne = fc
    .uniqueArray(fc.integer({ min: 1, max: 10_000 }), { minLength: 0, maxLength: 12 })
    .map((cuts) => cuts.sort((x, y) => x - y).map((cut, i, sorted) => cut - (i === 0 ? 0 : sorted[i - 1])))
    .map((basisPoints) => basisPoints.map((bp) => Share.fromBasisPoints(bp).toString()));
  const totals = fc.bigInt({ min: 0n, max: 10n ** 18n }).map((minor) => Amount.fromMinor(minor));

  it('property: for random totals and random shares with sum ≤ 1, Σ parts + remainder == total and no part or remainder is negative', () => {
    fc.assert(
      fc.property(totals, sharesUpToOne, (total, shares) => {
        const { parts, remainder } = allocateByShares(total, shares);
        expect(parts).toHaveLength(shares.length);
        expect(Amount.sum(parts).plus(remainder).toMinor()).toBe(total.toMinor());
        for (const part of parts) expect(part.isNegative()).toBe(false);
        expect(remainder.isNegative()).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('property: each part is the exact share rounded down — at most one cent below total × share', () => {
    fc.assert(
      fc.property(totals, sharesUpToOne, (total, shares) => {
        const { parts } = allocateByShares(total, shares);
        parts.forEach((part, i) => {
          const exactTimes10k = total.toMinor() * BigInt(Share.parse(shares[i]).toBasisPoints()); // in 1/10000 of a minor unit
          expect(part.toMinor() * 10_000n <= exactTimes10k).toBe(true);
          expect((part.toMinor() + 1n) * 10_000n > exactTimes10k).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('property: shares that sum to exactly 1 leave fewer cents than there are shares', () => {
    fc.assert(
      fc.property(
        totals,
        sharesUpToOne.filter((shares) => shares.length > 0),
        (total, shares) => {
          const bp = shares.map((share) => Share.parse(share).toBasisPoints());
          const toOne = [...shares.slice(0, -1), Share.fromBasisPoints(bp[bp.length - 1] + 10_000 - bp.reduce((x, y) => x + y, 0)).toString()];
          const { remainder } = allocateByShares(total, toOne);
          expect(remainder.toMinor() < BigInt(toOne.length)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('splitting by ratios: no cent lost (largest remainder)', () => {
  it('allocating 100.00 by ratios 1:1:1 gives 33.34, 33.33, 33.33', () => {
    expect(strings(allocateByRatios(a('100.00'), [1, 1, 1]))).toEqual(['33.34', '33.33', '33.33']);
  });

  it('100.00 in 3 evenly is the same 33.34, 33.33, 33.33', () => {
    expect(strings(allocateEvenly(a('100.00'), 3))).toEqual(['33.34', '33.33', '33.33']);
  });

  it('the leftover cent goes to the largest fraction, not the first part: 1.00 by 1:2 → 0.33, 0.67', () => {
    expect(strings(allocateByRatios(a('1.00'), [1, 2]))).toEqual(['0.33', '0.67']);
  });

  it('0.05 by 3:7 gives 0.02, 0.03 (exact shares 0.015 and 0.035, tie goes to the earlier part)', () => {
    expect(strings(allocateByRatios(a('0.05'), [3, 7]))).toEqual(['0.02', '0.03']);
  });

  it('a zero weight gets nothing, even when cents are left over', () => {
    expect(strings(allocateByRatios(a('0.01'), [0, 1, 1]))).toEqual(['0.00', '0.01', '0.00']);
    expect(strings(allocateByRatios(a('10.00'), [1, 0, 2]))).toEqual(['3.33', '0.00', '6.67']);
  });

  it('a negative total is the mirror image: -100.00 by 1:1:1 → -33.34, -33.33, -33.33', () => {
    expect(strings(allocateByRatios(a('-100.00'), [1, 1, 1]))).toEqual(['-33.34', '-33.33', '-33.33']);
  });

  it.each([[[]], [[0, 0]], [[1, -1]], [[1.5, 1]], [[Number.NaN]]])('ratios %p are refused', (ratios) => {
    expect(() => allocateByRatios(a('1.00'), ratios)).toThrow(RangeError);
  });

  it('evenly into 0 parts is refused', () => {
    expect(() => allocateEvenly(a('1.00'), 0)).toThrow(RangeError);
  });

  it('property: parts sum to the total exactly, none is negative, each is within a cent of its exact proportion', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 18n }),
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 15 }).filter((ratios) => ratios.some((r) => r > 0)),
        (minor, ratios) => {
          const parts = allocateByRatios(Amount.fromMinor(minor), ratios);
          const weightSum = BigInt(ratios.reduce((x, y) => x + y, 0));
          expect(parts).toHaveLength(ratios.length);
          expect(Amount.sum(parts).toMinor()).toBe(minor);
          parts.forEach((part, i) => {
            expect(part.isNegative()).toBe(false);
            const exactTimesSum = minor * BigInt(ratios[i]);
            const distance = part.toMinor() * weightSum - exactTimesSum;
            expect(distance > -weightSum && distance < weightSum).toBe(true);
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});
