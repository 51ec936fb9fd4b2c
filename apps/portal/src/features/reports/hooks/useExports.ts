import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { listExports, requestExport } from '../api';
import { isInProgress } from '../export-types';

export const EXPORTS_QUERY_KEY = ['exports'] as const;
/** How often the list is asked again while an export is queued or running. */
export const PROGRESS_POLL_MS = 1_500;

/** The exports, newest first, a page at a time; polled while any shown export is still being written. */
export function useExports() {
  return useInfiniteQuery({
    queryKey: [...EXPORTS_QUERY_KEY, 'list'],
    queryFn: ({ pageParam, signal }) => listExports(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.meta.has_more && last.meta.next_cursor ? last.meta.next_cursor : undefined),
    refetchInterval: (query) => (query.state.data?.pages.some((page) => page.data.some((job) => isInProgress(job.status))) ? PROGRESS_POLL_MS : false),
  });
}

export function useRequestExport() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: requestExport, onSuccess: () => queryClient.invalidateQueries({ queryKey: EXPORTS_QUERY_KEY }) });
}
