import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getDeveloper, listDevelopers, provisionDeveloper, reactivateDeveloper, setFeeOverride, suspendDeveloper, verifyEmail, verifyIdentity, type DeveloperFilters } from './api';

export const ADMIN_DEVELOPERS_KEY = ['admin', 'developers'] as const;

/** A 404 (no such account) is an answer, not a glitch: not retried. */
const noRetryOnNotFound = (failures: number, error: unknown) => failures < 2 && !(error instanceof Error && 'status' in error && error.status === 404);

export function useDevelopers(filters: DeveloperFilters) {
  return useInfiniteQuery({
    queryKey: [...ADMIN_DEVELOPERS_KEY, 'list', filters],
    queryFn: ({ pageParam, signal }) => listDevelopers(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.meta.has_more && last.meta.next_cursor ? last.meta.next_cursor : undefined),
  });
}

export function useDeveloper(id: string) {
  return useQuery({ queryKey: [...ADMIN_DEVELOPERS_KEY, 'detail', id], queryFn: ({ signal }) => getDeveloper(id, signal), retry: noRetryOnNotFound });
}

function useInvalidateDevelopers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ADMIN_DEVELOPERS_KEY });
}

export function useProvisionDeveloper() {
  const onSuccess = useInvalidateDevelopers();
  return useMutation({ mutationFn: provisionDeveloper, onSuccess });
}

export function useSetFeeOverride(id: string) {
  const onSuccess = useInvalidateDevelopers();
  return useMutation({ mutationFn: ({ currency, amount }: { currency: string; amount: number }) => setFeeOverride(id, currency, amount), onSuccess });
}

export function useVerifyIdentity(id: string) {
  const onSuccess = useInvalidateDevelopers();
  return useMutation({ mutationFn: (note?: string) => verifyIdentity(id, note), onSuccess });
}

export function useVerifyEmail(id: string) {
  const onSuccess = useInvalidateDevelopers();
  return useMutation({ mutationFn: (note?: string) => verifyEmail(id, note), onSuccess });
}

export function useSuspendDeveloper(id: string) {
  const onSuccess = useInvalidateDevelopers();
  return useMutation({ mutationFn: (reason: string) => suspendDeveloper(id, reason), onSuccess });
}

export function useReactivateDeveloper(id: string) {
  const onSuccess = useInvalidateDevelopers();
  return useMutation({ mutationFn: () => reactivateDeveloper(id), onSuccess });
}
