import { bucketsOf, bucketStart, parseInterval, parseRange } from './analytics-period';
import { analyticsSlot } from './analytics-slot';
import { figuresOf, ZERO_TOTALS } from './analytics-figures';
import { Amount } from '@gateway/platform';

describe('analytics ranges and buckets', () => {
  it('without dates: the 30 days up to today, both included', () => {
    expect(parseRange({}, '2026-11-26')).toEqual({ from: '2026-10-28', to: '2026-11-26' });
  });

  it('only from: 30 days from it, never past today; only to: the 30 days up to it', () => {
    expect(parseRange({ from: '2026-01-01' }, '2026-11-26')).toEqual({ from: '2026-01-01', to: '2026-01-30' });
    expect(parseRange({ from: '2026-11-20' }, '2026-11-26')).toEqual({ from: '2026-11-20', to: '2026-11-26' });
    expect(parseRange({ to: '2026-03-01' }, '2026-11-26')).toEqual({ from: '2026-01-31', to: '2026-03-01' });
  });

  it('refuses a date that is not on the calendar, from after to, and more than 366 days', () => {
    expect(() => parseRange({ from: '2026-02-30' }, '2026-11-26')).toThrow(expect.objectContaining({ code: 'validation_error' }));
    expect(() => parseRange({ from: '2026-11-02', to: '2026-11-01' }, '2026-11-26')).toThrow(expect.objectContaining({ code: 'validation_error' }));
    expect(() => parseRange({ from: '2025-01-01', to: '2026-01-02' }, '2026-11-26')).toThrow(expect.objectContaining({ code: 'validation_error' }));
    expect(parseRange({ from: '2024-01-01', to: '2024-12-31' }, '2026-11-26')).toEqual({ from: '2024-01-01', to: '2024-12-31' });
  });

  it('intervals: day by default, week and month; anything else is refused', () => {
    expect([parseInterval(undefined), parseInterval('week'), parseInterval('month')]).toEqual(['day', 'week', 'month']);
    expect(() => parseInterval('year')).toThrow(expect.objectContaining({ code: 'validation_error' }));
  });

  it('ISO weeks start on Monday: Sunday 2026-11-29 is in the week of Monday 2026-11-23', () => {
    expect(bucketStart('2026-11-29', 'week')).toBe('2026-11-23');
    expect(bucketStart('2026-11-23', 'week')).toBe('2026-11-23');
    expect(bucketStart('2026-02-14', 'month')).toBe('2026-02-01');
  });

  it('buckets cover the range exactly, the first and last cut to it', () => {
    expect(bucketsOf({ from: '2026-11-25', to: '2026-12-08' }, 'week')).toEqual([
      { start: '2026-11-25', end: '2026-11-29' },
      { start: '2026-11-30', end: '2026-12-06' },
      { start: '2026-12-07', end: '2026-12-08' },
    ]);
    expect(bucketsOf({ from: '2024-01-31', to: '2024-03-01' }, 'month')).toEqual([
      { start: '2024-01-31', end: '2024-01-31' },
      { start: '2024-02-01', end: '2024-02-29' },
      { start: '2024-03-01', end: '2024-03-01' },
    ]);
    expect(bucketsOf({ from: '2026-11-26', to: '2026-11-28' }, 'day').map((b) => b.start)).toEqual(['2026-11-26', '2026-11-27', '2026-11-28']);
  });

  it('the slot is the same for every change of one payment, and spreads over 0–7', () => {
    expect(analyticsSlot('3f9c2d1e-0000-4000-8000-0000000000ff')).toBe(255 % 8);
    expect(analyticsSlot('3f9c2d1e-0000-4000-8000-00000000000a')).toBe(2);
  });
});

describe('analytics measures', () => {
  it('2 successes of 3 outcomes is a success rate of 0.6667, by decimal division', () => {
    expect(figuresOf({ ...ZERO_TOTALS, succeeded: 2, failed: 1 }).successRate).toBe('0.6667');
  });

  it('no outcome: no success rate', () => {
    expect(figuresOf(ZERO_TOTALS).successRate).toBeNull();
  });

  it('net of 1,000.10 volume, 10.00 + 15.05 fees and 100.01 refunded is 875.04', () => {
    const figures = figuresOf({
      ...ZERO_TOTALS,
      succeeded: 1,
      volume: Amount.parse('1000.10'),
      platformFees: Amount.parse('10'),
      providerFees: Amount.parse('15.05'),
      refunds: Amount.parse('100.01'),
      refundsCount: 1,
    });
    expect([figures.fees.toString(), figures.net.toString()]).toEqual(['25.05', '875.04']);
  });
});
