const DAY_MS = 86_400_000;
/** The API's longest range (a leap year, both ends included). */
export const MAX_RANGE_DAYS = 366;

/** `YYYY-MM-DD` of the UTC day of `date`. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The last `days` UTC days up to today, both ends included. */
export function lastDays(days: number, now = new Date()): { from: string; to: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { from: utcDay(new Date(today - (days - 1) * DAY_MS)), to: utcDay(new Date(today)) };
}

/** Why a range cannot be asked for, or null: dates, order, length (the API's rules, checked before asking). */
export function rangeProblem(from: string, to: string): string | null {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) return 'Choose both days';
  if (start > end) return 'Must not be before the first day';
  if ((end - start) / DAY_MS + 1 > MAX_RANGE_DAYS) return `At most ${MAX_RANGE_DAYS} days`;
  return null;
}

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 });

/** The API's success rate (a ratio with 4 decimals, as a number or decimal text) as a percentage; "—" without outcomes. */
export function formatRate(rate: number | string | null | undefined): string {
  if (rate === null || rate === undefined) return '—';
  return percent.format(Number(rate));
}

/** A bucket's label: its first day, or "first – last" when it spans several (UTC days, as the API counts). */
export function bucketLabel(start: string, end: string, locale?: string): string {
  const format = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const first = format.format(new Date(`${start.slice(0, 10)}T00:00:00Z`));
  if (start.slice(0, 10) === end.slice(0, 10)) return first;
  return `${first} – ${format.format(new Date(`${end.slice(0, 10)}T00:00:00Z`))}`;
}
