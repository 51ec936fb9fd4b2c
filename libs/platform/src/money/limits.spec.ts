import { Amount, checkAmount, DEFAULT_AMOUNT_LIMITS, isWithinLimits, type AmountLimits } from './index';

const a = (text: string) => Amount.parse(text);

describe('default amount limits', () => {
  it('the maximum is 100,000,000.00 and the minimums are NGN 100, KES 10, USD 1, GBP 1', () => {
    expect(DEFAULT_AMOUNT_LIMITS.max.toString()).toBe('100000000.00');
    const minimums = Object.fromEntries(Object.entries(DEFAULT_AMOUNT_LIMITS.minimumByCurrency).map(([code, amount]) => [code, amount.toString()]));
    expect(minimums).toEqual({ NGN: '100.00', KES: '10.00', USD: '1.00', GBP: '1.00' });
  });

  it('the defaults cannot be changed by a caller', () => {
    expect(Object.isFrozen(DEFAULT_AMOUNT_LIMITS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_AMOUNT_LIMITS.minimumByCurrency)).toBe(true);
  });
});

describe('checking a request amount', () => {
  it('100.00 NGN (the minimum) is accepted and returned as an exact Amount', () => {
    const check = checkAmount(100, 'NGN');
    expect(check).toEqual({ ok: true, amount: a('100.00') });
  });

  it('99.99 NGN is below the minimum and says so with the currency', () => {
    expect(checkAmount(99.99, 'NGN')).toEqual({ ok: false, problem: 'below-minimum', message: 'amount must be at least 100.00 NGN' });
  });

  it('99.99 is fine in KES, USD and GBP whose minimums are lower', () => {
    expect(checkAmount('99.99', 'KES').ok).toBe(true);
    expect(checkAmount('1.00', 'USD').ok).toBe(true);
    expect(checkAmount('0.99', 'GBP')).toMatchObject({ ok: false, problem: 'below-minimum' });
    expect(checkAmount('9.99', 'KES')).toMatchObject({ ok: false, problem: 'below-minimum' });
  });

  it('100,000,000.00 is accepted; 100,000,000.01 is above the maximum', () => {
    expect(checkAmount(100_000_000, 'USD').ok).toBe(true);
    expect(checkAmount(100_000_000.01, 'USD')).toEqual({ ok: false, problem: 'above-maximum', message: 'amount must be at most 100000000.00 USD' });
  });

  it('zero and negative amounts are refused as not positive', () => {
    expect(checkAmount(0, 'NGN')).toMatchObject({ ok: false, problem: 'not-positive' });
    expect(checkAmount('-500.00', 'NGN')).toMatchObject({ ok: false, problem: 'not-positive' });
  });

  it('a parse failure is reported with its reason instead of thrown: 100.101, NaN, "abc", null', () => {
    expect(checkAmount(100.101, 'NGN')).toMatchObject({ ok: false, problem: 'too-many-decimals' });
    expect(checkAmount(Number.NaN, 'NGN')).toMatchObject({ ok: false, problem: 'not-finite' });
    expect(checkAmount('abc', 'NGN')).toMatchObject({ ok: false, problem: 'malformed' });
    expect(checkAmount(null, 'NGN')).toMatchObject({ ok: false, problem: 'wrong-type' });
  });

  it('custom limits are honoured', () => {
    const limits: AmountLimits = { ...DEFAULT_AMOUNT_LIMITS, max: a('500.00') };
    expect(checkAmount('500.01', 'NGN', limits)).toMatchObject({ ok: false, problem: 'above-maximum' });
    expect(isWithinLimits(a('500.00'), 'NGN', limits)).toBe(true);
    expect(isWithinLimits(a('500.01'), 'NGN', limits)).toBe(false);
  });
});
