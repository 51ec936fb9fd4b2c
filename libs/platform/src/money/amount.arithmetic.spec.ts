import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { Amount, InvalidAmountError, InvalidRateError, Share } from './index';

const a = (text: string) => Amount.parse(text);

describe('adding and subtracting', () => {
  it('0.1 + 0.2 is exactly 0.30', () => {
    expect(a('0.1').plus(a('0.2')).toString()).toBe('0.30');
    expect(Amount.parse(0.1).plus(Amount.parse(0.2)).equals(a('0.30'))).toBe(true);
  });

  it('100.10 - 0.20 is 99.90 and 0.20 - 100.10 is -99.90', () => {
    expect(a('100.10').minus(a('0.20')).toString()).toBe('99.90');
    expect(a('0.20').minus(a('100.10')).toString()).toBe('-99.90');
  });

  it('adding 0.01 ten thousand times gives exactly 100.00', () => {
    let total = Amount.zero();
    for (let i = 0; i < 10_000; i += 1) total = total.plus(a('0.01'));
    expect(total.toString()).toBe('100.00');
  });

  it('summing a list is exact, and the sum of nothing is 0.00', () => {
    expect(Amount.sum([a('19.99'), a('0.01'), a('80.00')]).toString()).toBe('100.00');
    expect(Amount.sum([]).toString()).toBe('0.00');
  });

  it('going past 999,999,999,999,999,999.99 throws instead of producing a value the column would reject', () => {
    const max = a('999999999999999999.99');
    expect(() => max.plus(a('0.01'))).toThrow(expect.objectContaining({ name: 'InvalidAmountError', reason: 'out-of-range' }));
    expect(() => max.negate().minus(a('0.01'))).toThrow(InvalidAmountError);
    expect(() => Amount.sum([max, max])).toThrow(InvalidAmountError);
  });

  it('amounts are immutable: plus returns a new value and leaves both operands alone', () => {
    const x = a('1.00');
    const y = x.plus(a('2.00'));
    expect(x.toString()).toBe('1.00');
    expect(y.toString()).toBe('3.00');
    expect(Object.isFrozen(x)).toBe(true);
  });

  it('negate and abs flip and drop the sign', () => {
    expect(a('5.25').negate().toString()).toBe('-5.25');
    expect(a('-5.25').abs().toString()).toBe('5.25');
    expect(a('5.25').abs().toString()).toBe('5.25');
  });
});

describe('comparing', () => {
  it('zero, negative and positive are told apart', () => {
    expect([Amount.zero().isZero(), Amount.zero().isNegative(), Amount.zero().isPositive()]).toEqual([true, false, false]);
    expect([a('-0.01').isZero(), a('-0.01').isNegative(), a('-0.01').isPositive()]).toEqual([false, true, false]);
    expect([a('0.01').isZero(), a('0.01').isNegative(), a('0.01').isPositive()]).toEqual([false, false, true]);
  });

  it('compare, equals and gt/gte/lt/lte agree with the cent values', () => {
    const [small, big] = [a('99.99'), a('100.00')];
    expect([small.compare(big), big.compare(small), big.compare(a('100'))]).toEqual([-1, 1, 0]);
    expect([small.lt(big), small.lte(big), small.gt(big), small.gte(big)]).toEqual([true, true, false, false]);
    expect([big.lte(a('100')), big.gte(a('100')), big.lt(a('100')), big.gt(a('100'))]).toEqual([true, true, false, false]);
    expect(big.equals(a('100.0'))).toBe(true);
    expect(big.equals(small)).toBe(false);
  });

  it('max and min pick the extreme amount', () => {
    expect(Amount.max(a('1'), a('-3'), a('2.5')).toString()).toBe('2.50');
    expect(Amount.min(a('1'), a('-3'), a('2.5')).toString()).toBe('-3.00');
    expect(Amount.max(a('4')).toString()).toBe('4.00');
  });

  it('jest equality sees the cents, so a wrong amount fails a toEqual', () => {
    expect(a('1.00')).toEqual(Amount.fromMinor(100n));
    expect(a('1.00')).not.toEqual(a('1.01'));
  });
});

describe('multiplying by a rate: the rounding is always named', () => {
  it('1.5 % of 100.00 is exactly 1.50 whatever the rounding', () => {
    for (const rounding of ['down', 'up', 'half-up', 'half-even', 'floor', 'ceil'] as const) {
      expect(a('100.00').multiply('0.015', rounding).toString()).toBe('1.50');
    }
  });

  it('33.33 × 0.015 = 0.49995 rounds down to 0.49 and half-up to 0.50', () => {
    expect(a('33.33').multiplyAndRoundDown('0.015').toString()).toBe('0.49');
    expect(a('33.33').multiplyAndRoundHalfUp('0.015').toString()).toBe('0.50');
    expect(a('33.33').multiply('0.015', 'up').toString()).toBe('0.50');
  });

  it('a half cent: 0.05 × 0.5 = 0.025 goes to 0.03 half-up, 0.02 half-even; 0.07 × 0.5 = 0.035 goes to 0.04 half-even', () => {
    expect(a('0.05').multiply('0.5', 'half-up').toString()).toBe('0.03');
    expect(a('0.05').multiply('0.5', 'half-even').toString()).toBe('0.02');
    expect(a('0.07').multiply('0.5', 'half-even').toString()).toBe('0.04');
  });

  it('on negative amounts down/up are toward/away from zero while floor/ceil are toward -∞/+∞', () => {
    const refund = a('-0.05');
    expect(refund.multiply('0.5', 'down').toString()).toBe('-0.02');
    expect(refund.multiply('0.5', 'up').toString()).toBe('-0.03');
    expect(refund.multiply('0.5', 'floor').toString()).toBe('-0.03');
    expect(refund.multiply('0.5', 'ceil').toString()).toBe('-0.02');
    expect(refund.multiply('0.5', 'half-up').toString()).toBe('-0.03');
  });

  it('percent("1.5") is 1.5 %: 2,500.00 → 37.50; 0.99 → 0.01485 → 0.01 half-up', () => {
    expect(a('2500.00').percent('1.5', 'half-up').toString()).toBe('37.50');
    expect(a('0.99').percent('1.5', 'half-up').toString()).toBe('0.01');
    expect(a('0.99').percent('1.5', 'up').toString()).toBe('0.02');
  });

  it('a Share and an integer bigint are rates too', () => {
    expect(a('100.00').multiplyAndRoundDown(Share.parse('0.3333')).toString()).toBe('33.33');
    expect(a('12.34').multiply(3n, 'down').toString()).toBe('37.02');
  });

  it('a rate with 20 significant digits is applied exactly to the largest amount (no precision loss)', () => {
    const max = a('999999999999999999.99');
    expect(max.multiply('0.99999999999999999999', 'down').toString()).toBe('999999999999999999.98');
    expect(max.multiply('0.99999999999999999999', 'up').toString()).toBe('999999999999999999.99');
  });

  it.each([['-0.5'], ['1e-3'], ['abc'], [''], ['0.123456789012345678901']])('the rate %p is refused', (rate) => {
    expect(() => a('10').multiply(rate, 'down')).toThrow(InvalidRateError);
  });

  it('a JS number rate is refused at runtime too (and by the type checker)', () => {
    // @ts-expect-error numbers are not accepted as rates
    expect(() => a('10').multiply(0.015, 'down')).toThrow(InvalidRateError);
  });

  it('an unknown rounding name is refused rather than defaulted', () => {
    // @ts-expect-error not a rounding mode
    expect(() => a('10').multiply('0.5', 'nearest')).toThrow(TypeError);
  });

  it('changing the global decimal.js configuration does not change how amounts are computed', () => {
    const saved = { precision: Decimal.precision, rounding: Decimal.rounding };
    Decimal.set({ precision: 3, rounding: Decimal.ROUND_UP });
    try {
      expect(a('123456.78').multiply('0.3333', 'down').toString()).toBe('41148.14');
      expect(a('0.05').multiply('0.5', 'half-even').toString()).toBe('0.02');
    } finally {
      Decimal.set(saved);
    }
  });

  it('importing the money module leaves the global decimal.js defaults alone', () => {
    expect(Decimal.precision).toBe(20);
    expect(Decimal.rounding).toBe(Decimal.ROUND_HALF_UP);
  });

  it('property: multiply(rate, "down") ≤ exact product ≤ multiply(rate, "up"), within a cent of each other', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 1_000_000 }), (minor, rateMillionths) => {
        const amount = Amount.fromMinor(minor);
        const rate = `${Math.floor(rateMillionths / 1_000_000)}.${String(rateMillionths % 1_000_000).padStart(6, '0')}`;
        const down = amount.multiply(rate, 'down').toMinor();
        const up = amount.multiply(rate, 'up').toMinor();
        const exactTimesMillion = minor * BigInt(rateMillionths); // exact product in millionths of a minor unit
        expect(down * 1_000_000n <= exactTimesMillion).toBe(true);
        expect(up * 1_000_000n >= exactTimesMillion).toBe(true);
        expect(up - down).toBe(exactTimesMillion % 1_000_000n === 0n ? 0n : 1n);
      }),
    );
  });
});
