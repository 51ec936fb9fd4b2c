import type { DashboardDay } from './api';

const DAY_MS = 86_400_000;

/** One bar per UTC day, oldest first: the API sends only days with payments, the chart shows every day. */
export interface ChartDay {
  /** YYYY-MM-DD (UTC). */
  date: string;
  /** The day as people read it ("26 Nov"). */
  label: string;
  volume: number;
  count: number;
}

/** The currencies that had volume in the window, in the API's order. */
export function chartCurrencies(days: DashboardDay[]): string[] {
  return [...new Set(days.map((d) => d.currency))];
}

/**
 * The `count` UTC days ending on `asOf`'s day, each with `currency`'s volume (0 on a day without
 * payments). Volumes are the API's exact figures, only plotted, never added up here.
 */
export function dailySeries(days: DashboardDay[], currency: string, asOf: string, count = 30, locale?: string): ChartDay[] {
  const byDate = new Map(days.filter((d) => d.currency === currency).map((d) => [d.date, d]));
  const end = new Date(asOf);
  const lastDay = Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate());
  const label = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return Array.from({ length: count }, (_, i) => {
    const day = new Date(lastDay - (count - 1 - i) * DAY_MS);
    const date = day.toISOString().slice(0, 10);
    const found = byDate.get(date);
    return { date, label: label.format(day), volume: found?.volume ?? 0, count: found?.count ?? 0 };
  });
}
