import { portalApi, unwrap, type Schema } from '../../../shared/api';

export type Overview = Schema<'AdminOverviewResponse'>;
export type OverviewCurrency = Schema<'OverviewCurrencyResponse'>;
export type AdminTimeseries = Schema<'AdminAnalyticsTimeseriesResponse'>;
export type Mode = Overview['modes'][number]['mode'];

export function getOverview(signal?: AbortSignal): Promise<Overview> {
  return unwrap(portalApi.GET('/api/portal/admin/overview', { signal }));
}

export interface TimeseriesFilters {
  mode: Mode;
  currency: string;
  /** One account only; every account when absent. */
  developer_id?: string;
}

/** Daily figures of the last 30 days (the API's default range), one currency, every account or one. */
export function getTimeseries(filters: TimeseriesFilters, signal?: AbortSignal): Promise<AdminTimeseries> {
  return unwrap(portalApi.GET('/api/portal/admin/analytics/timeseries', { params: { query: { ...filters, interval: 'day' } }, signal }));
}
