import { DEFAULT_FEE_SCHEDULE, calculateFee, resolveFeeSchedule } from './fees';

const fee = (amount: number, currency: 'NGN' | 'USD' | 'GBP' | 'KES' = 'NGN') =>
  calculateFee(amount, currency, DEFAULT_FEE_SCHEDULE);

describe('default fee schedule', () => {
  it('NGN 2,000 pays 30.00 fee (1.5 %, flat fee waived under 2,500)', () => {
    expect(fee(2_000_00)).toBe(30_00);
  });

  it('NGN 10,000 pays 250.00 (1.5 % + 100)', () => {
    expect(fee(10_000_00)).toBe(250_00);
  });

  it('NGN 500,000 is capped at 2,000.00', () => {
    expect(fee(500_000_00)).toBe(2_000_00);
  });

  it('NGN 2,500 exactly is the first amount that pays the 100 flat fee (37.50 + 100 = 137.50)', () => {
    expect(fee(2_500_00)).toBe(137_50);
  });

  it('NGN 2,499.99 is below the boundary: percentage only, rounded half-up (37.499 85 → 37.50)', () => {
    expect(fee(2_499_99)).toBe(37_50);
  });

  it('rounds the percentage half-up to the kobo: 1 kobo at 1.5 % is 0.015 → 0, 34 kobo → 0.51 → 1', () => {
    expect(fee(1)).toBe(0);
    expect(fee(33)).toBe(0); // 0.495 → 0
    expect(fee(34)).toBe(1); // 0.51 → 1
    expect(fee(100)).toBe(2); // 1.5 → 2 (half-up)
  });

  it('reaches the cap exactly at NGN 126,666.67 and stays there', () => {
    // 1.5 % × 126,666.67 = 1,900.00005 → 1,900.00 + 100 = 2,000.00
    expect(fee(126_666_67)).toBe(2_000_00);
    expect(fee(126_000_00)).toBe(1_990_00);
  });

  it('USD and GBP pay 3.9 %, KES 2.9 %, no flat fee', () => {
    expect(fee(100_00, 'USD')).toBe(3_90);
    expect(fee(12_345, 'GBP')).toBe(481); // 481.455 → 481
    expect(fee(1_000_00, 'KES')).toBe(29_00);
  });

  it('is exact for amounts far beyond float-safe products', () => {
    // 9,007,199,254,740,991 × 390 overflows 2^53; bigint keeps it exact.
    expect(fee(Number.MAX_SAFE_INTEGER, 'USD')).toBe(351_280_770_934_899);
  });
});

describe('resolveFeeSchedule', () => {
  it('replaces the rule of an overridden currency and keeps the others', () => {
    const schedule = resolveFeeSchedule({ USD: { percentBasisPoints: 100, flatFee: 30 } });
    expect(calculateFee(100_00, 'USD', schedule)).toBe(1_30);
    expect(calculateFee(10_000_00, 'NGN', schedule)).toBe(250_00);
  });

  it('rejects fractional or negative settings', () => {
    expect(() => resolveFeeSchedule({ NGN: { percentBasisPoints: 1.5, flatFee: 0 } })).toThrow(/NGN/);
    expect(() => resolveFeeSchedule({ KES: { percentBasisPoints: 100, flatFee: -1 } })).toThrow(/KES/);
  });
});
