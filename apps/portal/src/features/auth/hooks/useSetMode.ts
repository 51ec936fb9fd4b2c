import { useMutation, useQueryClient } from '@tanstack/react-query';
import { setMode, type Me, type Mode } from '../api';
import { ME_QUERY_KEY } from './useMe';

const notMe = (query: { queryKey: readonly unknown[] }) => query.queryKey[0] !== ME_QUERY_KEY[0];

/**
 * Switches the session between test and live mode (`PUT /api/portal/me/mode`; live needs a TOTP
 * code). Every cached answer but "who am I" belonged to the other mode: inactive ones are dropped,
 * the shown ones reset (no data) and fetched again, so no page shows the other mode's data even
 * for a moment. "Who am I" takes the new mode at once (the layout stays) and is fetched again.
 */
export function useSetMode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ mode, totp }: { mode: Mode; totp?: string }) => setMode(mode, totp),
    onSuccess: async ({ mode }) => {
      await queryClient.cancelQueries({ predicate: notMe });
      queryClient.setQueryData<Me>(ME_QUERY_KEY, (me) => (me ? { ...me, session: { ...me.session, mode } } : me));
      queryClient.removeQueries({ type: 'inactive', predicate: notMe });
      await Promise.all([queryClient.resetQueries({ predicate: notMe }), queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY })]);
    },
  });
}
