import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ME_QUERY_KEY } from '../../auth';
import { confirmTotp, enrollTotp } from '../api';

export function useEnrollTotp() {
  return useMutation({ mutationFn: enrollTotp });
}

/** Confirming turns TOTP on: "who am I" says so after it. */
export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: confirmTotp, onSuccess: () => queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY }) });
}
