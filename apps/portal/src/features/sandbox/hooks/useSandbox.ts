import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { advanceClock, completeCheckout, deposit, getClock, openDispute, resetClock, resolveDispute, runScan, type CheckoutOutcome, type DisputeOutcome } from '../api';

export const CLOCK_QUERY_KEY = ['sandbox', 'clock'] as const;

/** The test clock (test mode only: the page does not ask for it in live mode). */
export function useTestClock(enabled: boolean) {
  return useQuery({ queryKey: CLOCK_QUERY_KEY, queryFn: ({ signal }) => getClock(signal), enabled });
}

/** Sandbox actions change payments, the wallet and (time rules) nearly anything: fetch them again. */
function useRefreshAfter() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['payments'] }),
      queryClient.invalidateQueries({ queryKey: ['wallet'] }),
      queryClient.invalidateQueries({ queryKey: ['customers'] }),
      queryClient.invalidateQueries({ queryKey: CLOCK_QUERY_KEY }),
    ]);
}

export function useCompleteCheckout() {
  const onSuccess = useRefreshAfter();
  return useMutation({ mutationFn: ({ reference, outcome }: { reference: string; outcome: CheckoutOutcome }) => completeCheckout(reference, outcome), onSuccess });
}

export function useRunScan() {
  const onSuccess = useRefreshAfter();
  return useMutation({ mutationFn: runScan, onSuccess });
}

export function useOpenDispute() {
  const onSuccess = useRefreshAfter();
  return useMutation({ mutationFn: openDispute, onSuccess });
}

export function useResolveDispute() {
  const onSuccess = useRefreshAfter();
  return useMutation({ mutationFn: ({ reference, outcome }: { reference: string; outcome: DisputeOutcome }) => resolveDispute(reference, outcome), onSuccess });
}

export function useDeposit() {
  const onSuccess = useRefreshAfter();
  return useMutation({ mutationFn: ({ id, amount, senderName }: { id: string; amount: number; senderName?: string }) => deposit(id, amount, senderName), onSuccess });
}

export function useAdvanceClock() {
  const onSuccess = useRefreshAfter();
  return useMutation({ mutationFn: advanceClock, onSuccess });
}

export function useResetClock() {
  const onSuccess = useRefreshAfter();
  return useMutation({ mutationFn: resetClock, onSuccess });
}
