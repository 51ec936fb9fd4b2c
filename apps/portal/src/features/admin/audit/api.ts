import { portalApi, unwrapPage, type Page, type Schema } from '../../../shared/api';

export type AuditEvent = Schema<'AuditEventResponse'>;

/** The platform audit log's filters, as the API names them; empty ones are left out. */
export interface AdminAuditFilters {
  developer_id?: string;
  actor?: string;
  action?: string;
  target_type?: string;
  target_id?: string;
  /** ISO 8601 instants. */
  from?: string;
  to?: string;
}

export const PAGE_SIZE = 50;

/** Every account's audit log (and the platform's own actions), newest first, a page at a time. */
export function listAdminAuditEvents(filters: AdminAuditFilters, cursor: string | undefined, signal?: AbortSignal): Promise<Page<AuditEvent[]>> {
  return unwrapPage(portalApi.GET('/api/portal/admin/audit', { params: { query: { ...filters, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } }, signal }));
}

/** The CSV of the same filters: a plain link, so the browser downloads it with the session cookie. */
export function adminAuditCsvHref(filters: AdminAuditFilters): string {
  const query = new URLSearchParams({ format: 'csv' });
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  return `/api/portal/admin/audit?${query.toString()}`;
}
