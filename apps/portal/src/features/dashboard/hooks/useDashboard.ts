import { useQuery } from '@tanstack/react-query';
import { getDashboard, getRecentFailedDeliveries } from '../api';

export const DASHBOARD_QUERY_KEY = ['dashboard'] as const;

export function useDashboard() {
  return useQuery({ queryKey: DASHBOARD_QUERY_KEY, queryFn: ({ signal }) => getDashboard(signal) });
}

export const FAILED_DELIVERIES_QUERY_KEY = [...DASHBOARD_QUERY_KEY, 'failed-deliveries'] as const;

export function useRecentFailedDeliveries() {
  return useQuery({ queryKey: FAILED_DELIVERIES_QUERY_KEY, queryFn: ({ signal }) => getRecentFailedDeliveries(signal) });
}
