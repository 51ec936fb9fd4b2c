import type { AnalyticsFiguresResponse, AnalyticsSummaryResponse, AnalyticsTimeseriesResponse, AnalyticsTopCustomerResponse, AnalyticsTopCustomersResponse, Mode } from '@gateway/contracts';
import type { Amount, Currency } from '@gateway/platform';
import type { AnalyticsFigures, AnalyticsSummary, AnalyticsTimeseries } from './analytics-figures';

/** A top customer as the payments module ranks them (its TopCustomer has this shape). */
export interface RankedCustomer {
  currency: Currency;
  customerReference: string;
  email: string;
  count: number;
  volume: Amount;
}

/** The wire form of a period's measures: amounts become JSON numbers here, and only here. */
export function toFiguresResponse(figures: AnalyticsFigures): AnalyticsFiguresResponse {
  return {
    count: figures.count,
    succeeded: figures.succeeded,
    failed: figures.failed,
    abandoned: figures.abandoned,
    // Already rounded to 4 places by decimal division; the number is that decimal's nearest double.
    success_rate: figures.successRate === null ? null : Number(figures.successRate),
    volume: figures.volume.toNumber(),
    fees: figures.fees.toNumber(),
    platform_fees: figures.platformFees.toNumber(),
    provider_fees: figures.providerFees.toNumber(),
    refunds: figures.refunds.toNumber(),
    refunds_count: figures.refundsCount,
    net: figures.net.toNumber(),
  };
}

export function toAnalyticsSummaryResponse(mode: Mode, summary: AnalyticsSummary): AnalyticsSummaryResponse {
  return {
    mode,
    from: summary.from,
    to: summary.to,
    currencies: summary.currencies.map((entry) => ({ currency: entry.currency, ...toFiguresResponse(entry) })),
  };
}

/** `top`: the payments module's ranking of the range, for each of `currencies`. */
export function toAnalyticsTopCustomersResponse(mode: Mode, range: { from: string; to: string }, currencies: readonly Currency[], top: RankedCustomer[]): AnalyticsTopCustomersResponse {
  return {
    mode,
    from: range.from,
    to: range.to,
    currencies: currencies.map((currency) => ({ currency, customers: top.filter((customer) => customer.currency === currency).map(toTopCustomerResponse) })),
  };
}

export function toAnalyticsTimeseriesResponse(mode: Mode, series: AnalyticsTimeseries): AnalyticsTimeseriesResponse {
  return {
    mode,
    from: series.from,
    to: series.to,
    interval: series.interval,
    currencies: series.currencies.map((entry) => ({
      currency: entry.currency,
      points: entry.points.map((point) => ({ start: point.start, end: point.end, ...toFiguresResponse(point) })),
    })),
  };
}

function toTopCustomerResponse(customer: RankedCustomer): AnalyticsTopCustomerResponse {
  return { customer_reference: customer.customerReference, email: customer.email, count: customer.count, volume: customer.volume.toNumber() };
}
