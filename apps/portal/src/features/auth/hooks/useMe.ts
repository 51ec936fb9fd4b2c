import { useQuery } from '@tanstack/react-query';
import { getMe } from '../api';

export const ME_QUERY_KEY = ['me'] as const;

/** The signed-in user, account, role and session mode (`GET /api/portal/me`). */
export function useMe() {
  return useQuery({ queryKey: ME_QUERY_KEY, queryFn: ({ signal }) => getMe(signal), retry: false, staleTime: 60_000 });
}
