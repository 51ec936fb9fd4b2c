import { portalApi, unwrap, unwrapPage, type Schema } from '../../shared/api';

export type Dashboard = Schema<'DashboardResponse'>;
export type DashboardPeriod = Schema<'DashboardPeriodResponse'>;
export type DashboardDay = Schema<'DashboardDayResponse'>;

/** The session mode's figures in one call (sums made by the API in exact decimals; days are UTC days). */
export function getDashboard(signal?: AbortSignal): Promise<Dashboard> {
  return unwrap(portalApi.GET('/api/portal/dashboard', { signal }));
}

export type FailedDelivery = Schema<'WebhookLogResponse'>;
type Endpoint = Schema<'WebhookResponse'>;

/** How many recent failed deliveries the dashboard shows. */
export const FAILED_DELIVERIES_SHOWN = 5;

/** A failed attempt with its endpoint's URL (null when the endpoint is no longer listed). */
export interface FailedDeliveryRow extends FailedDelivery {
  endpoint_url: string | null;
}

/**
 * The newest failed webhook attempts across the account's endpoints in the session's mode, each with
 * its endpoint's URL (an account has a handful of endpoints: the first page of 100 is all of them).
 */
export async function getRecentFailedDeliveries(signal?: AbortSignal): Promise<{ rows: FailedDeliveryRow[]; hasMore: boolean }> {
  const [failed, endpoints] = await Promise.all([
    unwrapPage(portalApi.GET('/api/portal/webhooks/deliveries/failed', { params: { query: { limit: FAILED_DELIVERIES_SHOWN } }, signal })),
    unwrap(portalApi.GET('/api/portal/webhooks', { params: { query: { limit: 100 } }, signal })) as Promise<Endpoint[]>,
  ]);
  const urls = new Map(endpoints.map((e) => [e.id, e.url]));
  return { rows: failed.data.map((log) => ({ ...log, endpoint_url: urls.get(log.webhook_id) ?? null })), hasMore: failed.meta.has_more };
}
