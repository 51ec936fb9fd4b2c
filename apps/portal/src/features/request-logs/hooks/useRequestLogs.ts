import { useInfiniteQuery } from '@tanstack/react-query';
import { searchRequestLogs, type RequestLogFilters } from '../api';

/**
 * The session mode's request logs, newest first, one page at a time ("Load more" follows
 * `meta.next_cursor`). New filters start a new list: they are part of the query key.
 */
export function useRequestLogs(filters: RequestLogFilters) {
  return useInfiniteQuery({
    queryKey: ['request-logs', filters],
    queryFn: ({ pageParam, signal }) => searchRequestLogs(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.meta.has_more && last.meta.next_cursor ? last.meta.next_cursor : undefined),
  });
}
