import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { approveSettlement, listPendingSettlements, listRecentSettlements, rejectSettlement } from './api';

export const ADMIN_SETTLEMENTS_KEY = ['admin', 'settlements'] as const;

export function usePendingSettlements() {
  return useInfiniteQuery({
    queryKey: [...ADMIN_SETTLEMENTS_KEY, 'pending'],
    queryFn: ({ pageParam, signal }) => listPendingSettlements(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.meta.has_more && last.meta.next_cursor ? last.meta.next_cursor : undefined),
  });
}

export function useRecentSettlements() {
  return useQuery({ queryKey: [...ADMIN_SETTLEMENTS_KEY, 'recent'], queryFn: ({ signal }) => listRecentSettlements(signal) });
}

/** A decision changes the queue and the histories: both are fetched again. */
function useInvalidateSettlements() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ADMIN_SETTLEMENTS_KEY });
}

export function useApproveSettlement() {
  const onSuccess = useInvalidateSettlements();
  return useMutation({ mutationFn: approveSettlement, onSuccess });
}

export function useRejectSettlement() {
  const onSuccess = useInvalidateSettlements();
  return useMutation({ mutationFn: ({ reference, reason }: { reference: string; reason: string }) => rejectSettlement(reference, reason), onSuccess });
}
