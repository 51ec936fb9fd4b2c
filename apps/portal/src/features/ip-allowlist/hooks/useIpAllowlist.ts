import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { addAllowlistEntry, listAllowlist, removeAllowlistEntry } from '../api';

export const ALLOWLIST_QUERY_KEY = ['ip-allowlist'] as const;

export function useIpAllowlist() {
  return useQuery({ queryKey: ALLOWLIST_QUERY_KEY, queryFn: ({ signal }) => listAllowlist(signal) });
}

function useInvalidateAllowlist() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ALLOWLIST_QUERY_KEY });
}

export function useAddAllowlistEntry() {
  const onSuccess = useInvalidateAllowlist();
  return useMutation({ mutationFn: addAllowlistEntry, onSuccess });
}

export function useRemoveAllowlistEntry() {
  const onSuccess = useInvalidateAllowlist();
  return useMutation({ mutationFn: removeAllowlistEntry, onSuccess });
}
