import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { getBalances, listLedgerEntries, type LedgerFilters } from '../api';

/** Refunds invalidate `['wallet']` (features/payments): balances and ledger are fetched again. */
export const WALLET_QUERY_KEY = ['wallet'] as const;

export function useBalances() {
  return useQuery({ queryKey: [...WALLET_QUERY_KEY, 'balances'], queryFn: ({ signal }) => getBalances(signal) });
}

export function useLedger(filters: LedgerFilters) {
  return useInfiniteQuery({
    queryKey: [...WALLET_QUERY_KEY, 'ledger', filters],
    queryFn: ({ pageParam, signal }) => listLedgerEntries(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.meta.has_more && last.meta.next_cursor ? last.meta.next_cursor : undefined),
  });
}
