import { portalApi, unwrap, unwrapPage, type Page, type Schema } from '../../shared/api';

export type RequestLog = Schema<'RequestLogResponse'>;
export type RequestTrace = Schema<'RequestTraceResponse'>;
export type TracedEvent = Schema<'RequestTraceEventResponse'>;
export type TracedDelivery = Schema<'RequestTraceDeliveryResponse'>;
export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx';

/** The filters the page offers; empty ones are not sent. Times are ISO 8601, inclusive. */
export interface RequestLogFilters {
  statusClass?: StatusClass;
  path?: string;
  requestId?: string;
  from?: string;
  to?: string;
}

export const PAGE_SIZE = 25;

export function searchRequestLogs(filters: RequestLogFilters, cursor: string | undefined, signal?: AbortSignal): Promise<Page<RequestLog[]>> {
  const query = {
    limit: PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
    ...(filters.statusClass ? { status_class: filters.statusClass } : {}),
    ...(filters.path ? { path: filters.path } : {}),
    ...(filters.requestId ? { request_id: filters.requestId } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
  };
  return unwrapPage(portalApi.GET('/api/portal/request-logs', { params: { query }, signal }));
}

/** What one request did: its log entry, the ledger entries it posted, its events and their deliveries. */
export function getRequestTrace(requestId: string, signal?: AbortSignal): Promise<RequestTrace> {
  return unwrap(portalApi.GET('/api/portal/requests/{request_id}', { params: { path: { request_id: requestId } }, signal }));
}
