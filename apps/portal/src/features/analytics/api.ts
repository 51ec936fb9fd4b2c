import { portalApi, unwrap, type Schema } from '../../shared/api';

export type AnalyticsSummary = Schema<'AnalyticsSummaryResponse'>;
export type AnalyticsCurrencyFigures = AnalyticsSummary['currencies'][number];
export type AnalyticsTimeseries = Schema<'AnalyticsTimeseriesResponse'>;
export type AnalyticsPoint = AnalyticsTimeseries['currencies'][number]['points'][number];
export type AnalyticsInterval = AnalyticsTimeseries['interval'];
export type AnalyticsTopCustomers = Schema<'AnalyticsTopCustomersResponse'>;
export type AnalyticsCurrencyTopCustomers = AnalyticsTopCustomers['currencies'][number];

/** UTC days, both included (`YYYY-MM-DD`), and optionally one currency. */
export interface AnalyticsRange {
  from: string;
  to: string;
  currency?: string;
}

/** Figures of the range per currency (sums made by the API in exact decimals). */
export function getAnalyticsSummary(range: AnalyticsRange, signal?: AbortSignal): Promise<AnalyticsSummary> {
  return unwrap(portalApi.GET('/api/portal/analytics/summary', { params: { query: range }, signal }));
}

/** The same figures per day, week or month of the range (empty buckets as zeros). */
export function getAnalyticsTimeseries(range: AnalyticsRange & { interval: AnalyticsInterval }, signal?: AbortSignal): Promise<AnalyticsTimeseries> {
  return unwrap(portalApi.GET('/api/portal/analytics/timeseries', { params: { query: range }, signal }));
}

/** The range's best customers per currency (the API ranks 5 by default). */
export function getAnalyticsTopCustomers(range: AnalyticsRange, signal?: AbortSignal): Promise<AnalyticsTopCustomers> {
  return unwrap(portalApi.GET('/api/portal/analytics/top-customers', { params: { query: range }, signal }));
}
