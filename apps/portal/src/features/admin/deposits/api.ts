import { portalApi, unwrapPage, type Page, type Schema } from '../../../shared/api';

export type UnmatchedDeposit = Schema<'AdminUnmatchedDepositResponse'>;

export const PAGE_SIZE = 25;

export function listUnmatchedDeposits(cursor: string | undefined, signal?: AbortSignal): Promise<Page<UnmatchedDeposit[]>> {
  return unwrapPage(portalApi.GET('/api/portal/admin/unmatched-deposits', { params: { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } }, signal }));
}
