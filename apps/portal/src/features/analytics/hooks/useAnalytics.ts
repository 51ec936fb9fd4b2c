import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getAnalyticsSummary, getAnalyticsTimeseries, getAnalyticsTopCustomers, type AnalyticsInterval, type AnalyticsRange } from '../api';

export const ANALYTICS_QUERY_KEY = ['analytics'] as const;

export function useAnalyticsSummary(range: AnalyticsRange) {
  return useQuery({ queryKey: [...ANALYTICS_QUERY_KEY, 'summary', range], queryFn: ({ signal }) => getAnalyticsSummary(range, signal), placeholderData: keepPreviousData });
}

export function useAnalyticsTimeseries(range: AnalyticsRange & { interval: AnalyticsInterval }) {
  return useQuery({ queryKey: [...ANALYTICS_QUERY_KEY, 'timeseries', range], queryFn: ({ signal }) => getAnalyticsTimeseries(range, signal), placeholderData: keepPreviousData });
}

/** A query of its own: ranking customers costs more than the kept figures, so the cards never wait for it. */
export function useAnalyticsTopCustomers(range: AnalyticsRange) {
  return useQuery({ queryKey: [...ANALYTICS_QUERY_KEY, 'top-customers', range], queryFn: ({ signal }) => getAnalyticsTopCustomers(range, signal), placeholderData: keepPreviousData });
}
