import { DomainError } from '@gateway/platform';

/** The buckets of a time series: UTC days, ISO weeks (Monday to Sunday) or calendar months. */
export const ANALYTICS_INTERVALS = ['day', 'week', 'month'] as const;
export type AnalyticsInterval = (typeof ANALYTICS_INTERVALS)[number];

/** The longest range a summary or time series covers, in days (a leap year, both ends included). */
export const MAX_RANGE_DAYS = 366;
/** Without `from`/`to`: the last 30 UTC days, today included. */
export const DEFAULT_RANGE_DAYS = 30;

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** UTC days `from` to `to`, both included, as `YYYY-MM-DD`. */
export interface AnalyticsRange {
  from: string;
  to: string;
}

/** One bucket of a time series: the days [start, end] of the range it covers (a first or last week or month may be cut by the range). */
export interface AnalyticsBucket {
  start: string;
  end: string;
}

/**
 * The range asked for: both dates, one of them (the other 29 days away) or neither (the 30 days
 * up to `today`).
 * @throws validation_error (not a calendar date, `from` after `to`, longer than 366 days)
 */
export function parseRange(input: { from?: string; to?: string }, today: string): AnalyticsRange {
  const from = input.from === undefined ? undefined : parseDay(input.from, 'from');
  const to = input.to === undefined ? undefined : parseDay(input.to, 'to');
  const span = (DEFAULT_RANGE_DAYS - 1) * DAY_MS;
  const end = to ?? (from === undefined ? parseDay(today, 'today') : Math.min(from + span, parseDay(today, 'today')));
  const start = from ?? end - span;
  if (start > end) throw new DomainError('validation_error', 'from must not be after to.', { from: ['must not be after to'] });
  if ((end - start) / DAY_MS + 1 > MAX_RANGE_DAYS) {
    throw new DomainError('validation_error', `A range covers at most ${MAX_RANGE_DAYS} days.`, { to: [`must be at most ${MAX_RANGE_DAYS - 1} days after from`] });
  }
  return { from: dayOf(start), to: dayOf(end) };
}

/** @throws validation_error */
export function parseInterval(input: string | undefined): AnalyticsInterval {
  const interval = input ?? 'day';
  if (!(ANALYTICS_INTERVALS as readonly string[]).includes(interval)) {
    throw new DomainError('validation_error', 'interval must be day, week or month.', { interval: ['must be one of day, week, month'] });
  }
  return interval as AnalyticsInterval;
}

/** The bucket a day belongs to, named by the bucket's first day (a Monday, the 1st of a month, or the day itself). */
export function bucketStart(day: string, interval: AnalyticsInterval): string {
  if (interval === 'day') return day;
  const [year, month] = day.split('-');
  if (interval === 'month') return `${year}-${month}-01`;
  const ms = parseDay(day, 'day');
  // getUTCDay: Sunday 0 … Saturday 6; ISO weeks start on Monday.
  const sinceMonday = (new Date(ms).getUTCDay() + 6) % 7;
  return dayOf(ms - sinceMonday * DAY_MS);
}

/** Every bucket of the range in order, each clipped to the range, empty ones included. */
export function bucketsOf(range: AnalyticsRange, interval: AnalyticsInterval): AnalyticsBucket[] {
  const buckets: AnalyticsBucket[] = [];
  const last = parseDay(range.to, 'to');
  let day = parseDay(range.from, 'from');
  while (day <= last) {
    const start = bucketStart(dayOf(day), interval);
    const next = nextBucket(start, interval);
    const end = Math.min(next - DAY_MS, last);
    buckets.push({ start: dayOf(day), end: dayOf(end) });
    day = end + DAY_MS;
  }
  return buckets;
}

function nextBucket(start: string, interval: AnalyticsInterval): number {
  const ms = parseDay(start, 'start');
  if (interval === 'day') return ms + DAY_MS;
  if (interval === 'week') return ms + 7 * DAY_MS;
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/** @throws validation_error */
function parseDay(value: string, field: string): number {
  const match = DATE.exec(value);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (!match || Number.isNaN(ms) || dayOf(ms) !== value) {
    throw new DomainError('validation_error', `${field} must be a calendar date (YYYY-MM-DD).`, { [field]: ['must be a date in the form YYYY-MM-DD'] });
  }
  return ms;
}

function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
