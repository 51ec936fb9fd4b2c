import { portalApi, unwrap, unwrapPage, type Page, type Schema } from '../../shared/api';

export type ExportJob = Schema<'ExportResponse'>;
export type ExportType = ExportJob['type'];
export type ExportStatus = ExportJob['status'];
export type NewExport = Schema<'CreateExportRequest'>;

export const EXPORTS_PAGE_SIZE = 25;

/** The account's exports in the session's mode, newest first, a page at a time. */
export function listExports(cursor: string | undefined, signal?: AbortSignal): Promise<Page<ExportJob[]>> {
  return unwrapPage(portalApi.GET('/api/portal/exports', { params: { query: { limit: EXPORTS_PAGE_SIZE, ...(cursor ? { cursor } : {}) } }, signal }));
}

export function getExport(reference: string, signal?: AbortSignal): Promise<ExportJob> {
  return unwrap(portalApi.GET('/api/portal/exports/{reference}', { params: { path: { reference } }, signal }));
}

/** Queues the export; it runs in the background (the list shows its progress). */
export function requestExport(body: NewExport): Promise<ExportJob> {
  return unwrap(portalApi.POST('/api/portal/exports', { body }));
}

/**
 * The file's address through the portal's own route: a plain link, so the browser downloads it with
 * the session cookie (no script reads the file).
 */
export function downloadHref(reference: string): string {
  return `/api/portal/exports/${encodeURIComponent(reference)}/download`;
}
