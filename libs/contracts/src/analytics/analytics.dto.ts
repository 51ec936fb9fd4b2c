import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsUUID, Matches, Max, Min } from 'class-validator';
import { type Mode, MODES } from '../common/mode';

/** Time-series buckets: UTC days, ISO weeks (Monday to Sunday) or calendar months. */
export const ANALYTICS_INTERVAL_VALUES = ['day', 'week', 'month'] as const;
export type AnalyticsIntervalValue = (typeof ANALYTICS_INTERVAL_VALUES)[number];

const ANALYTICS_DATE = /^\d{4}-\d{2}-\d{2}$/;
const CURRENCY_CODE = /^[A-Z]{3}$/;

/**
 * `GET /analytics/summary`: the UTC days `from` to `to`, both included (at most 366 days; default
 * the last 30 days, today included; one date given: the 30 days from or up to it).
 */
export class AnalyticsSummaryQuery {
  /** First UTC day (YYYY-MM-DD), included. */
  @IsOptional()
  @Matches(ANALYTICS_DATE, { message: 'from must be a date (YYYY-MM-DD)' })
  from?: string;

  /** Last UTC day (YYYY-MM-DD), included. */
  @IsOptional()
  @Matches(ANALYTICS_DATE, { message: 'to must be a date (YYYY-MM-DD)' })
  to?: string;

  /** One currency only (NGN, USD, GBP, KES); default: one entry per supported currency. */
  @IsOptional()
  @Matches(CURRENCY_CODE, { message: 'currency must be a currency code such as NGN' })
  currency?: string;
}

/** `GET /analytics/timeseries`: the summary's range and currency, cut into buckets. */
export class AnalyticsTimeseriesQuery extends AnalyticsSummaryQuery {
  /** `day` (default), `week` (ISO weeks, Monday first) or `month` (calendar months). */
  @IsOptional()
  @IsIn(ANALYTICS_INTERVAL_VALUES, { message: 'interval must be one of day, week, month' })
  interval?: AnalyticsIntervalValue;
}

/** Most customers `GET /analytics/top-customers` ranks per currency. */
export const MAX_TOP_CUSTOMERS = 20;

/** `GET /analytics/top-customers`: the summary's range and currency, and how many customers. */
export class AnalyticsTopCustomersQuery extends AnalyticsSummaryQuery {
  /** Customers per currency, 1 to 20; 5 when omitted. */
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(MAX_TOP_CUSTOMERS)
  limit?: number;
}

/** Platform staff: one mode's figures across every account, or one account's. */
export class AdminAnalyticsSummaryQuery extends AnalyticsSummaryQuery {
  /** Which mode's books (default `live`). */
  @IsOptional()
  @IsIn(MODES, { message: 'mode must be one of test, live' })
  mode?: Mode;

  /** One account only (its developer id); default every account. */
  @IsOptional()
  @IsUUID('all', { message: 'developer_id must be a developer id' })
  developer_id?: string;
}

/** Platform staff: the admin summary's filters, cut into buckets. */
export class AdminAnalyticsTimeseriesQuery extends AdminAnalyticsSummaryQuery {
  /** `day` (default), `week` (ISO weeks, Monday first) or `month` (calendar months). */
  @IsOptional()
  @IsIn(ANALYTICS_INTERVAL_VALUES, { message: 'interval must be one of day, week, month' })
  interval?: AnalyticsIntervalValue;
}

/**
 * The measures of a period in one currency. Payments count on the UTC day of their outcome (a
 * success on the day it was paid, a decline or abandonment on the day it was recorded; a late
 * success after a decline or abandonment moves the payment to `succeeded`); refunds on the day
 * they were processed. Amounts are exact, in the major unit.
 */
export class AnalyticsFiguresResponse {
  /** Payments that reached an outcome: succeeded + failed + abandoned (pending and scheduled ones do not count). */
  count: number;
  succeeded: number;
  /** Declined. */
  failed: number;
  /** Not paid within the abandonment delay. */
  abandoned: number;
  /** succeeded / count, 0 to 1 rounded half-up to 4 decimals; null when count is 0. */
  success_rate: number | null;
  /** Sum of the successful payments' amounts. */
  volume: number;
  /** platform_fees + provider_fees. */
  fees: number;
  /** The gateway's fees on the successful payments. */
  platform_fees: number;
  /** The provider's fees the merchant bore on the successful payments. */
  provider_fees: number;
  /** Sum of the processed refunds. */
  refunds: number;
  /** How many refunds were processed. */
  refunds_count: number;
  /** volume − fees − refunds. */
  net: number;
}

/** One of the best customers of the range in a currency (successful payments paid in the range). */
export class AnalyticsTopCustomerResponse {
  customer_reference: string;
  /** The e-mail of the customer's latest payment. */
  email: string;
  /** Successful payments. */
  count: number;
  /** Sum of their amounts, before fees and refunds. */
  volume: number;
}

/** One currency's figures over the whole range. */
export class AnalyticsCurrencySummaryResponse extends AnalyticsFiguresResponse {
  currency: string;
}

/** One currency's best customers of the range, largest volume first. */
export class AnalyticsCurrencyTopCustomersResponse {
  currency: string;
  customers: AnalyticsTopCustomerResponse[];
}

/** `GET /analytics/top-customers`. */
export class AnalyticsTopCustomersResponse {
  mode: Mode;
  /** First UTC day of the range (YYYY-MM-DD). */
  from: string;
  /** Last UTC day of the range (YYYY-MM-DD), included. */
  to: string;
  /** One entry per supported currency, or the one asked for; empty lists where nobody paid. */
  currencies: AnalyticsCurrencyTopCustomersResponse[];
}

/** `GET /analytics/summary`. */
export class AnalyticsSummaryResponse {
  mode: Mode;
  /** First UTC day of the range (YYYY-MM-DD). */
  from: string;
  /** Last UTC day of the range (YYYY-MM-DD), included. */
  to: string;
  /** One entry per supported currency (NGN, USD, GBP, KES), or the one asked for; zeros where nothing happened. */
  currencies: AnalyticsCurrencySummaryResponse[];
}

/** One bucket of a time series: the days `start` to `end` (both included; the first and last bucket are cut to the range). */
export class AnalyticsPointResponse extends AnalyticsFiguresResponse {
  /** YYYY-MM-DD. */
  start: string;
  /** YYYY-MM-DD, included. */
  end: string;
}

export class AnalyticsCurrencySeriesResponse {
  currency: string;
  /** Every bucket of the range in order, empty ones as zeros. */
  points: AnalyticsPointResponse[];
}

/** `GET /analytics/timeseries`. */
export class AnalyticsTimeseriesResponse {
  mode: Mode;
  from: string;
  to: string;
  interval: AnalyticsIntervalValue;
  /** One entry per supported currency, or the one asked for. */
  currencies: AnalyticsCurrencySeriesResponse[];
}

/** Platform staff's summary: whose figures they are. */
export class AdminAnalyticsSummaryResponse extends AnalyticsSummaryResponse {
  /** The account asked for; null: every account of the mode. */
  developer_id: string | null;
}

/** Platform staff's time series: whose figures they are. */
export class AdminAnalyticsTimeseriesResponse extends AnalyticsTimeseriesResponse {
  /** The account asked for; null: every account of the mode. */
  developer_id: string | null;
}

/** Payments of one currency in a period, every account of one mode. */
export class OverviewCurrencyResponse {
  currency: string;
  /** Sum of the successful payments' amounts. */
  volume: number;
  /** Payments that reached an outcome. */
  count: number;
  succeeded: number;
  failed: number;
  abandoned: number;
}

/** One mode's payments today and over the last 30 days (UTC days, today included). */
export class OverviewModeResponse {
  mode: Mode;
  /** Every supported currency, zeros included. */
  today: OverviewCurrencyResponse[];
  last_30_days: OverviewCurrencyResponse[];
}

/** Settlements waiting for approval in one mode and currency. */
export class OverviewPendingSettlementsResponse {
  mode: Mode;
  currency: string;
  count: number;
  /** Sum of their amounts. */
  amount: number;
}

/** API requests of the last 24 hours, every account and mode. */
export class OverviewApiErrorsResponse {
  /** ISO 8601: the window's start. */
  since: string;
  requests: number;
  /** Answered 4xx. */
  client_errors: number;
  /** Answered 5xx. */
  server_errors: number;
  /** client_errors / requests, 4 decimals; null without requests. */
  client_error_rate: number | null;
  /** server_errors / requests, 4 decimals; null without requests. */
  server_error_rate: number | null;
}

/** `GET /api/portal/admin/overview`: the platform at a glance. */
export class AdminOverviewResponse {
  /** ISO 8601, when the figures were taken. */
  as_of: string;
  /** `test` and `live`. */
  modes: OverviewModeResponse[];
  /** Only modes and currencies with settlements waiting. */
  settlements_pending_approval: OverviewPendingSettlementsResponse[];
  api_errors_24h: OverviewApiErrorsResponse;
}
