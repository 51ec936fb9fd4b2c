import { useInfiniteQuery } from '@tanstack/react-query';
import { listAuditEvents, type AuditFilters } from '../api';

/** The audit log, newest first, a page at a time; new filters start a new list (they are in the key). */
export function useAuditEvents(filters: AuditFilters, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ['audit', filters],
    queryFn: ({ pageParam, signal }) => listAuditEvents(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.meta.has_more && last.meta.next_cursor ? last.meta.next_cursor : undefined),
    enabled,
  });
}
