import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { isApiError } from '../../../shared/api-client';
import { getCustomer, listCustomers } from '../api';

export function useCustomers(email: string | undefined) {
  return useInfiniteQuery({
    queryKey: ['customers', 'list', email ?? ''],
    queryFn: ({ pageParam, signal }) => listCustomers(email, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.meta.has_more && last.meta.next_cursor ? last.meta.next_cursor : undefined),
    // A malformed e-mail is the API's validation_error: shown, not retried.
    retry: (failures, error) => failures < 2 && !(isApiError(error) && error.status < 500),
  });
}

export function useCustomer(reference: string) {
  return useQuery({
    queryKey: ['customers', 'detail', reference],
    queryFn: ({ signal }) => getCustomer(reference, signal),
    retry: (failures, error) => failures < 2 && !(isApiError(error) && error.status === 404),
  });
}
