import { bucketLabel, formatRate, lastDays, rangeProblem } from './range';

describe('analytics range', () => {
  it('takes the last 30 UTC days, today included', () => {
    expect(lastDays(30, new Date('2026-11-26T23:30:00-05:00'))).toEqual({ from: '2026-10-29', to: '2026-11-27' });
    expect(lastDays(1, new Date('2026-03-01T00:00:00Z'))).toEqual({ from: '2026-03-01', to: '2026-03-01' });
  });

  it('refuses a reversed, incomplete or longer-than-366-day range before asking the API', () => {
    expect(rangeProblem('2026-01-01', '2026-01-01')).toBeNull();
    expect(rangeProblem('2024-01-01', '2024-12-31')).toBeNull();
    expect(rangeProblem('2024-01-01', '2025-01-01')).toBe('At most 366 days');
    expect(rangeProblem('2026-02-02', '2026-02-01')).toBe('Must not be before the first day');
    expect(rangeProblem('', '2026-02-01')).toBe('Choose both days');
  });

  it('shows the rate as a percentage, a range of days per bucket', () => {
    expect([formatRate('0.6667'), formatRate(1), formatRate(null)]).toEqual([new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 }).format(0.6667), new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 }).format(1), '—']);
    expect(bucketLabel('2026-11-02', '2026-11-08', 'en-US')).toBe('Nov 2 – Nov 8');
    expect(bucketLabel('2026-11-02', '2026-11-02', 'en-US')).toBe('Nov 2');
  });
});
