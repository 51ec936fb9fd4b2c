import { portalApi, unwrap, unwrapPage, type Page, type Schema } from '../../../shared/api';

export type AdminSettlement = Schema<'AdminSettlementResponse'>;
export type SettlementStatus = AdminSettlement['status'];

export const PAGE_SIZE = 25;
/** How many recent settlements (every account) the account histories are drawn from. */
export const HISTORY_SIZE = 100;

/** The approval queue (`status=pending_approval`), oldest request last, a page at a time. */
export function listPendingSettlements(cursor: string | undefined, signal?: AbortSignal): Promise<Page<AdminSettlement[]>> {
  return unwrapPage(portalApi.GET('/api/portal/admin/settlements', { params: { query: { status: 'pending_approval', limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } }, signal }));
}

/** The newest settlements of every account: each account's history in the queue comes from here. */
export function listRecentSettlements(signal?: AbortSignal): Promise<Page<AdminSettlement[]>> {
  return unwrapPage(portalApi.GET('/api/portal/admin/settlements', { params: { query: { limit: HISTORY_SIZE } }, signal }));
}

export function approveSettlement(reference: string): Promise<AdminSettlement> {
  return unwrap(portalApi.POST('/api/portal/admin/settlements/{reference}/approve', { params: { path: { reference } } }));
}

export function rejectSettlement(reference: string, reason: string): Promise<AdminSettlement> {
  return unwrap(portalApi.POST('/api/portal/admin/settlements/{reference}/reject', { params: { path: { reference } }, body: { reason } }));
}
