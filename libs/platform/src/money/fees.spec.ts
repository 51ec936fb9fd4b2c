import { Amount, computeFee, type FeeSchedule } from './index';

const a = (text: string) => Amount.parse(text);

// 1.5 % + 100.00, flat part waived under 2,500.00, capped at 2,000.00.
const LOCAL_CARD: FeeSchedule = { percent: '1.5', rounding: 'half-up', flat: a('100.00'), flatWaivedBelow: a('2500.00'), cap: a('2000.00') };

describe('fees', () => {
  it('1.5 % + 100 on 10,000.00 is 250.00', () => {
    expect(computeFee(a('10000.00'), LOCAL_CARD).toString()).toBe('250.00');
  });

  it('under 2,500.00 the flat part is waived: 2,499.99 → 37.50 (37.49985 half-up)', () => {
    expect(computeFee(a('2499.99'), LOCAL_CARD).toString()).toBe('37.50');
  });

  it('at exactly 2,500.00 the flat part applies: 37.50 + 100.00 = 137.50', () => {
    expect(computeFee(a('2500.00'), LOCAL_CARD).toString()).toBe('137.50');
  });

  it('the cap holds: 1,000,000.00 would be 15,100.00 and is capped at 2,000.00', () => {
    expect(computeFee(a('1000000.00'), LOCAL_CARD).toString()).toBe('2000.00');
  });

  it('the schedule names the rounding: 33.33 at 1.5 % is 0.49 rounded down and 0.50 half-up', () => {
    expect(computeFee(a('33.33'), { percent: '1.5', rounding: 'down' }).toString()).toBe('0.49');
    expect(computeFee(a('33.33'), { percent: '1.5', rounding: 'half-up' }).toString()).toBe('0.50');
  });

  it('a flat fee without a waiver always applies, also on 0.00', () => {
    expect(computeFee(a('0.00'), { percent: '0', rounding: 'down', flat: a('0.30') }).toString()).toBe('0.30');
  });

  it('a fee on a negative amount is refused', () => {
    expect(() => computeFee(a('-1.00'), LOCAL_CARD)).toThrow(/negative amount/);
  });
});
