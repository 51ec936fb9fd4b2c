import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createKey, listKeys, revokeKey, rotateKey, type NewKey } from '../api';

export const KEYS_QUERY_KEY = ['keys'] as const;

export function useKeys() {
  return useQuery({ queryKey: KEYS_QUERY_KEY, queryFn: ({ signal }) => listKeys(signal) });
}

function useInvalidateKeys() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: KEYS_QUERY_KEY });
}

export function useCreateKey() {
  const onSuccess = useInvalidateKeys();
  return useMutation({ mutationFn: ({ body, totp }: { body: NewKey; totp?: string }) => createKey(body, totp), onSuccess });
}

export function useRotateKey() {
  const onSuccess = useInvalidateKeys();
  return useMutation({
    mutationFn: ({ id, overlapHours, totp }: { id: string; overlapHours: number; totp?: string }) => rotateKey(id, overlapHours, totp),
    onSuccess,
  });
}

export function useRevokeKey() {
  const onSuccess = useInvalidateKeys();
  return useMutation({ mutationFn: revokeKey, onSuccess });
}
