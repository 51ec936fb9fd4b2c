import { InvalidShareError, parseShares, Share, sharesSumToAtMostOne, sumOfSharesInBasisPoints, type InvalidShareReason } from './index';

function refusal(input: unknown): InvalidShareReason | 'accepted' {
  try {
    Share.parse(input);
    return 'accepted';
  } catch (error) {
    if (error instanceof InvalidShareError) return error.reason;
    throw error;
  }
}

describe('reading a share', () => {
  it('"0.3333" is 3333 basis points and prints with four decimals', () => {
    expect(Share.parse('0.3333').toBasisPoints()).toBe(3333);
    expect(Share.parse('0.5').toString()).toBe('0.5000');
    expect(Share.parse(1).toString()).toBe('1.0000');
  });

  it('the JSON number 0.1 is exactly 0.1000 (read via its shortest string, not ×10000)', () => {
    expect(Share.parse(0.1).toBasisPoints()).toBe(1000);
    expect(Share.parse(0.0001).toBasisPoints()).toBe(1);
    expect(Share.parse(0.5789).toBasisPoints()).toBe(5789);
  });

  it.each([
    ['0.33333', 'too-many-decimals'],
    [0.00001, 'too-many-decimals'],
    [0.1 + 0.2, 'too-many-decimals'],
    ['0', 'not-positive'],
    [0, 'not-positive'],
    ['-0.5', 'not-positive'],
    ['1.0001', 'above-one'],
    [2, 'above-one'],
    ['1e-4', 'malformed'],
    ['.5', 'malformed'],
    ['50%', 'malformed'],
    [NaN, 'not-finite'],
    [null, 'wrong-type'],
  ] as const)('%p is refused (%s)', (input, reason) => {
    expect(refusal(input)).toBe(reason);
  });

  it('fromBasisPoints accepts 1..10000 integers only', () => {
    expect(Share.fromBasisPoints(2500).toString()).toBe('0.2500');
    for (const bad of [0, 10_001, 1.5, -1]) expect(() => Share.fromBasisPoints(bad)).toThrow(InvalidShareError);
  });
});

describe('shares must add up to at most 1, exactly', () => {
  it('[0.1, 0.2, 0.7] sums to exactly 1 and is allowed, in any order', () => {
    expect(sharesSumToAtMostOne([0.1, 0.2, 0.7])).toBe(true);
    expect(sumOfSharesInBasisPoints(parseShares([0.1, 0.2, 0.7]))).toBe(10_000);
    // In floating point this order sums to 0.9999999999999999; a float check would have to guess.
    expect(0.7 + 0.2 + 0.1).not.toBe(1);
    expect(sumOfSharesInBasisPoints(parseShares([0.7, 0.2, 0.1]))).toBe(10_000);
  });

  it('[0.6, 0.3, 0.2] (1.1) is refused even though each share is fine', () => {
    expect(sharesSumToAtMostOne([0.6, 0.3, 0.2])).toBe(false);
  });

  it('three 0.3333 shares (0.9999) are allowed', () => {
    expect(sharesSumToAtMostOne(['0.3333', '0.3333', '0.3333'])).toBe(true);
  });

  it('shares summing to 1.0001 are refused: [0.5, 0.5001]', () => {
    expect(sharesSumToAtMostOne([0.5, 0.5001])).toBe(false);
    expect(() => parseShares(['0.5', '0.5001'])).toThrow(new InvalidShareError('sum-above-one', 'shares must add up to at most 1.0000, they add up to 1.0001'));
  });

  it('a list with an invalid entry is refused and the error names the entry', () => {
    expect(sharesSumToAtMostOne(['0.5', 'abc'])).toBe(false);
    expect(() => parseShares(['0.5', '0.12345'])).toThrow(/^shares\[1\]: share must have at most 4 decimal places/);
  });

  it('an empty list sums to 0 and is allowed', () => {
    expect(sharesSumToAtMostOne([])).toBe(true);
  });
});
