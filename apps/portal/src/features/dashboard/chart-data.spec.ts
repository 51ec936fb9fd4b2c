import { chartCurrencies, dailySeries } from './chart-data';

describe('dashboard chart data', () => {
  const days = [
    { date: '2026-10-31', currency: 'USD', volume: 2.3, count: 2 },
    { date: '2026-11-01', currency: 'NGN', volume: 200.3, count: 2 },
    { date: '2026-11-01', currency: 'USD', volume: 2.35, count: 1 },
  ];

  it('lists the currencies that had volume, in the API’s order', () => {
    expect(chartCurrencies(days)).toEqual(['USD', 'NGN']);
  });

  it('fills the 30 UTC days ending today, zero on days without payments', () => {
    const series = dailySeries(days, 'USD', '2026-11-01T00:10:00.000Z', 30, 'en-GB');
    expect(series).toHaveLength(30);
    expect(series[0]).toEqual({ date: '2026-10-03', label: '3 Oct', volume: 0, count: 0 });
    expect(series.slice(-2)).toEqual([
      { date: '2026-10-31', label: '31 Oct', volume: 2.3, count: 2 },
      { date: '2026-11-01', label: '1 Nov', volume: 2.35, count: 1 },
    ]);
  });
});
