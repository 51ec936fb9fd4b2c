import { Amount, type Currency } from '@gateway/platform';
import { Decimal } from 'decimal.js';

/**
 * The measures of a period in one currency. Counts are payments that reached an outcome in the
 * period; money is exact (`Amount`, minor units).
 */
export interface AnalyticsFigures {
  /** succeeded + failed + abandoned. */
  count: number;
  succeeded: number;
  failed: number;
  abandoned: number;
  /** succeeded / count, rounded half-up to 4 decimal places ("0.6667"); null without any outcome. */
  successRate: string | null;
  /** Sum of the successful payments' amounts. */
  volume: Amount;
  platformFees: Amount;
  providerFees: Amount;
  /** platformFees + providerFees. */
  fees: Amount;
  /** Sum of the processed refunds. */
  refunds: Amount;
  refundsCount: number;
  /** volume − fees − refunds. */
  net: Amount;
}

/** The stored sums of one currency and day (or any set of days), before the derived measures. */
export interface AnalyticsTotals {
  succeeded: number;
  failed: number;
  abandoned: number;
  volume: Amount;
  platformFees: Amount;
  providerFees: Amount;
  refunds: Amount;
  refundsCount: number;
}

export const ZERO_TOTALS: AnalyticsTotals = Object.freeze({
  succeeded: 0,
  failed: 0,
  abandoned: 0,
  volume: Amount.zero(),
  platformFees: Amount.zero(),
  providerFees: Amount.zero(),
  refunds: Amount.zero(),
  refundsCount: 0,
});

export function addTotals(a: AnalyticsTotals, b: AnalyticsTotals): AnalyticsTotals {
  return {
    succeeded: a.succeeded + b.succeeded,
    failed: a.failed + b.failed,
    abandoned: a.abandoned + b.abandoned,
    volume: a.volume.plus(b.volume),
    platformFees: a.platformFees.plus(b.platformFees),
    providerFees: a.providerFees.plus(b.providerFees),
    refunds: a.refunds.plus(b.refunds),
    refundsCount: a.refundsCount + b.refundsCount,
  };
}

/** part / whole rounded half-up to 4 decimal places, by decimal division ("0.6667"); null when whole is 0. */
export function rateOf(part: number, whole: number): string | null {
  return whole === 0 ? null : new Decimal(part).div(whole).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed(4);
}

/** The derived measures: count, success rate (decimal division, never a float), fees, net. */
export function figuresOf(totals: AnalyticsTotals): AnalyticsFigures {
  const count = totals.succeeded + totals.failed + totals.abandoned;
  const fees = totals.platformFees.plus(totals.providerFees);
  return {
    count,
    succeeded: totals.succeeded,
    failed: totals.failed,
    abandoned: totals.abandoned,
    successRate: rateOf(totals.succeeded, count),
    volume: totals.volume,
    platformFees: totals.platformFees,
    providerFees: totals.providerFees,
    fees,
    refunds: totals.refunds,
    refundsCount: totals.refundsCount,
    net: totals.volume.minus(fees).minus(totals.refunds),
  };
}

/** A summary: one entry per currency over the whole range. */
export interface AnalyticsSummary {
  from: string;
  to: string;
  currencies: Array<{ currency: Currency } & AnalyticsFigures>;
}

/** A time series: per currency, one point per bucket of the range (empty buckets as zeros). */
export interface AnalyticsTimeseries {
  from: string;
  to: string;
  interval: 'day' | 'week' | 'month';
  currencies: Array<{ currency: Currency; points: Array<{ start: string; end: string } & AnalyticsFigures> }>;
}
