import { addIntervals, firstPeriodStartingAtOrAfter, periodBounds, periodStart, retryAt } from './billing-calendar';

const at = (iso: string) => new Date(iso);
const iso = (d: Date) => d.toISOString();
const starts = (anchor: string, interval: Parameters<typeof periodStart>[1], count: number) =>
  Array.from({ length: count }, (_, i) => iso(periodStart(at(anchor), interval, i + 1)));

describe('billing calendar', () => {
  it('a monthly plan anchored on 31 January bills on 29 February (leap year), 31 March, 30 April, always from the anchor day', () => {
    expect(starts('2024-01-31T09:30:00.000Z', 'monthly', 5)).toEqual([
      '2024-01-31T09:30:00.000Z',
      '2024-02-29T09:30:00.000Z',
      '2024-03-31T09:30:00.000Z',
      '2024-04-30T09:30:00.000Z',
      '2024-05-31T09:30:00.000Z',
    ]);
  });

  it('a monthly plan anchored on 31 January bills on 28 February in a common year, then 31 March (not 28 March)', () => {
    expect(starts('2025-01-31T00:00:00.000Z', 'monthly', 3)).toEqual(['2025-01-31T00:00:00.000Z', '2025-02-28T00:00:00.000Z', '2025-03-31T00:00:00.000Z']);
  });

  it('a monthly plan anchored on the 30th crosses the year end and February: 30 Dec, 30 Jan, 28 Feb, 30 Mar', () => {
    expect(starts('2026-11-30T12:00:00.000Z', 'monthly', 5)).toEqual([
      '2026-11-30T12:00:00.000Z',
      '2026-12-30T12:00:00.000Z',
      '2027-01-30T12:00:00.000Z',
      '2027-02-28T12:00:00.000Z',
      '2027-03-30T12:00:00.000Z',
    ]);
  });

  it('a yearly plan anchored on 29 February falls back to 28 February in common years and returns to 29 February in leap years', () => {
    expect(starts('2024-02-29T08:00:00.000Z', 'yearly', 6)).toEqual([
      '2024-02-29T08:00:00.000Z',
      '2025-02-28T08:00:00.000Z',
      '2026-02-28T08:00:00.000Z',
      '2027-02-28T08:00:00.000Z',
      '2028-02-29T08:00:00.000Z',
      '2029-02-28T08:00:00.000Z',
    ]);
    expect(iso(addIntervals(at('2096-02-29T00:00:00.000Z'), 'yearly', 4))).toBe('2100-02-28T00:00:00.000Z'); // 2100 is not a leap year
    expect(iso(addIntervals(at('1996-02-29T00:00:00.000Z'), 'yearly', 4))).toBe('2000-02-29T00:00:00.000Z'); // 2000 is
  });

  it('daily and weekly periods are exact multiples of 24 hours', () => {
    expect(starts('2026-03-28T23:59:59.999Z', 'daily', 3)).toEqual(['2026-03-28T23:59:59.999Z', '2026-03-29T23:59:59.999Z', '2026-03-30T23:59:59.999Z']);
    expect(starts('2026-12-28T10:00:00.000Z', 'weekly', 3)).toEqual(['2026-12-28T10:00:00.000Z', '2027-01-04T10:00:00.000Z', '2027-01-11T10:00:00.000Z']);
  });

  it('gives a period its start and the next period start as its end', () => {
    const { start, end } = periodBounds(at('2025-01-31T00:00:00.000Z'), 'monthly', 2);
    expect([iso(start), iso(end)]).toEqual(['2025-02-28T00:00:00.000Z', '2025-03-31T00:00:00.000Z']);
  });

  it('refuses a period number below 1', () => {
    expect(() => periodStart(at('2025-01-01T00:00:00.000Z'), 'monthly', 0)).toThrow(RangeError);
  });

  it('finds the first billing date at or after a moment (a resumed subscription), however far ahead', () => {
    const anchor = at('2024-01-31T00:00:00.000Z');
    expect(firstPeriodStartingAtOrAfter(anchor, 'monthly', at('2024-02-29T00:00:00.000Z'), 1)).toBe(2);
    expect(firstPeriodStartingAtOrAfter(anchor, 'monthly', at('2024-02-29T00:00:00.001Z'), 1)).toBe(3);
    expect(firstPeriodStartingAtOrAfter(anchor, 'monthly', at('2024-01-01T00:00:00.000Z'), 4)).toBe(4);
    for (const interval of ['daily', 'weekly', 'monthly', 'yearly'] as const) {
      for (const target of ['2031-07-15T00:00:00.000Z', '2026-03-31T00:00:00.000Z', '2028-02-29T00:00:00.000Z']) {
        const n = firstPeriodStartingAtOrAfter(anchor, interval, at(target), 1);
        expect(periodStart(anchor, interval, n).getTime()).toBeGreaterThanOrEqual(at(target).getTime());
        if (n > 1) expect(periodStart(anchor, interval, n - 1).getTime()).toBeLessThan(at(target).getTime());
      }
    }
  });

  it('retries 1, 3 and 5 days after the first failure, then none', () => {
    const first = at('2026-01-10T06:00:00.000Z');
    expect([1, 2, 3, 4].map((n) => retryAt(first, [1, 3, 5], n)?.toISOString() ?? null)).toEqual([
      '2026-01-11T06:00:00.000Z',
      '2026-01-13T06:00:00.000Z',
      '2026-01-15T06:00:00.000Z',
      null,
    ]);
    expect(retryAt(first, [], 1)).toBeNull();
  });
});
