import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { signOut } from '../api';

/** Ends the session, drops every cached answer (they belong to that session) and shows sign-in. */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: signOut,
    onSettled: async () => {
      queryClient.clear();
      await navigate('/sign-in', { replace: true });
    },
  });
}
