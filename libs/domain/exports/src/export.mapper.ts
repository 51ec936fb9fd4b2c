import type { ExportResponse } from '@gateway/contracts';
import type { ExportEntity } from './export.entity';

/** 0–100: whole percent of rows_total written; 100 only once the file is complete (a running export shows at most 99). */
export function exportProgress(e: Pick<ExportEntity, 'status' | 'rowsDone' | 'rowsTotal'>): number {
  if (e.status === 'completed' || e.status === 'expired') return 100;
  if (e.status !== 'running' || !e.rowsTotal) return 0;
  return Math.min(99, Math.floor((e.rowsDone * 100) / e.rowsTotal));
}

/**
 * The only bridge from an export row to the wire. `downloadUrl` is where the caller's own
 * channel downloads it (the merchant API or the portal); shown only while the file exists.
 */
export function toExportResponse(e: ExportEntity, downloadUrl: (reference: string) => string): ExportResponse {
  return {
    reference: e.reference,
    type: e.type,
    status: e.status,
    filters: { from: e.filters.from, to: e.filters.to, currency: e.filters.currency, status: e.filters.status },
    rows_done: e.rowsDone,
    rows_total: e.rowsTotal,
    progress: exportProgress(e),
    file_size: e.status === 'completed' || e.status === 'expired' ? e.fileSize : null,
    created_at: e.createdAt.toISOString(),
    started_at: e.startedAt?.toISOString() ?? null,
    completed_at: e.completedAt?.toISOString() ?? null,
    expires_at: e.expiresAt?.toISOString() ?? null,
    download_url: e.status === 'completed' ? downloadUrl(e.reference) : null,
    error: e.status === 'failed' ? e.error : null,
  };
}

/** The file name a download carries: what, which range, which export. */
export function exportFileName(e: Pick<ExportEntity, 'type' | 'filters' | 'reference'>): string {
  const day = (iso: string) => iso.slice(0, 10);
  return `${e.type}_${day(e.filters.from)}_${day(e.filters.to)}_${e.reference}.csv`;
}

/** Where the file is stored: the tenant and mode are part of the key, so no two tenants' files can share one. */
export function exportFileKey(e: Pick<ExportEntity, 'developerId' | 'mode' | 'reference'>): string {
  return `${e.developerId}/${e.mode}/${e.reference}.csv`;
}
