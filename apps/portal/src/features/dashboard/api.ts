import { portalApi, unwrap, type Schema } from '../../shared/api';

export type Dashboard = Schema<'DashboardResponse'>;
export type DashboardPeriod = Schema<'DashboardPeriodResponse'>;
export type DashboardDay = Schema<'DashboardDayResponse'>;

/** The session mode's figures in one call (sums made by the API in exact decimals; days are UTC days). */
export function getDashboard(signal?: AbortSignal): Promise<Dashboard> {
  return unwrap(portalApi.GET('/api/portal/dashboard', { signal }));
}
