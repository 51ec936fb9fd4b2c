import type { PlanInterval } from '@gateway/contracts';

const DAY_MS = 24 * 60 * 60 * 1_000;
/** The longest a period of each interval can be. */
const MAX_PERIOD_MS: Record<PlanInterval, number> = { daily: DAY_MS, weekly: 7 * DAY_MS, monthly: 31 * DAY_MS, yearly: 366 * DAY_MS };
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Billing dates of a subscription, in UTC (docs/subscriptions.md#billing-dates). Period `n` (n ≥ 1)
 * starts `n − 1` intervals after the billing anchor, ALWAYS counted from the anchor, never from the
 * previous (possibly clamped) date: a monthly plan anchored on 31 January bills on 28 (or 29)
 * February, then 31 March, 30 April, 31 May…; a yearly plan anchored on 29 February bills on
 * 28 February in common years and 29 February in leap years. The time of day is the anchor's.
 */
export function periodStart(anchor: Date, interval: PlanInterval, period: number): Date {
  if (!Number.isInteger(period) || period < 1) throw new RangeError(`billing period must be a whole number ≥ 1, got ${period}`);
  return addIntervals(anchor, interval, period - 1);
}

/** Period `n` runs from its start up to (not including) the next period's start. */
export function periodBounds(anchor: Date, interval: PlanInterval, period: number): { start: Date; end: Date } {
  return { start: periodStart(anchor, interval, period), end: periodStart(anchor, interval, period + 1) };
}

/** `count` intervals after `anchor`: days and weeks are exact multiples of 24 h (UTC has no DST); months and years keep the anchor's day, clamped to the month's length. */
export function addIntervals(anchor: Date, interval: PlanInterval, count: number): Date {
  switch (interval) {
    case 'daily':
      return new Date(anchor.getTime() + count * DAY_MS);
    case 'weekly':
      return new Date(anchor.getTime() + count * 7 * DAY_MS);
    case 'monthly':
      return addMonths(anchor, count);
    case 'yearly':
      return addMonths(anchor, 12 * count);
  }
}

/**
 * The first period, from `from` on, that starts at or after `at` (a resumed subscription bills
 * again from the first billing date still ahead of it).
 */
export function firstPeriodStartingAtOrAfter(anchor: Date, interval: PlanInterval, at: Date, from: number): number {
  let period = Math.max(from, 1);
  // Jump close first (a daily plan resumed after years must not step a thousand times): no period
  // is longer than MAX_PERIOD_MS (a clamped month at most 3 days more), so this never overshoots.
  const behind = at.getTime() - periodStart(anchor, interval, period).getTime();
  if (behind > 0) period += Math.max(0, Math.floor(behind / MAX_PERIOD_MS[interval]) - 1);
  while (periodStart(anchor, interval, period) < at) period++;
  return period;
}

/**
 * When the `failedAttempts`-th failed charge of a period is retried: `retryDays[failedAttempts − 1]`
 * days after the period's first failed charge; null when there are no retries left (cancel).
 */
export function retryAt(firstFailureAt: Date, retryDays: readonly number[], failedAttempts: number): Date | null {
  const days = retryDays[failedAttempts - 1];
  return days === undefined ? null : new Date(firstFailureAt.getTime() + days * DAY_MS);
}

function addMonths(anchor: Date, months: number): Date {
  const totalMonths = anchor.getUTCFullYear() * 12 + anchor.getUTCMonth() + months;
  const year = Math.floor(totalMonths / 12);
  const month = totalMonths - year * 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month));
  const date = new Date(Date.UTC(2000, month, day, anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds(), anchor.getUTCMilliseconds()));
  // Date.UTC maps years 0–99 to 1900–1999: set the year separately.
  date.setUTCFullYear(year, month, day);
  return date;
}

/** Days in `month` (0 = January) of `year`, Gregorian. */
function daysInMonth(year: number, month: number): number {
  return month === 1 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month];
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
