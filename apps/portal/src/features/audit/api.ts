import { portalApi, unwrapPage, type Page, type Schema } from '../../shared/api';

export type AuditEventRow = Schema<'AuditEventResponse'>;

/** The list's filters, as the API names them; empty ones are left out. */
export interface AuditFilters {
  actor?: string;
  action?: string;
  target_type?: string;
  target_id?: string;
  /** ISO 8601 instants. */
  from?: string;
  to?: string;
}

export const AUDIT_PAGE_SIZE = 50;

/** The account's audit log, newest first, a page at a time. */
export function listAuditEvents(filters: AuditFilters, cursor: string | undefined, signal?: AbortSignal): Promise<Page<AuditEventRow[]>> {
  return unwrapPage(portalApi.GET('/api/portal/audit', { params: { query: { ...filters, limit: AUDIT_PAGE_SIZE, ...(cursor ? { cursor } : {}) } }, signal }));
}

/**
 * The CSV of the same filters through the portal's route: a plain link, so the browser downloads it
 * with the session cookie.
 */
export function auditCsvHref(filters: AuditFilters): string {
  const query = new URLSearchParams({ format: 'csv' });
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  return `/api/portal/audit?${query.toString()}`;
}
