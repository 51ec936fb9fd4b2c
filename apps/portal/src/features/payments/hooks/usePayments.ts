import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getPayment, getRefund, listPaymentRefunds, listPayments, refundPayment, type NewRefund, type PaymentFilters } from '../api';

export const PAYMENTS_QUERY_KEY = ['payments'] as const;

/** The session mode's payments, newest first, a page at a time ("Load more" follows `meta.next_cursor`). */
export function usePayments(filters: PaymentFilters) {
  return useInfiniteQuery({
    queryKey: [...PAYMENTS_QUERY_KEY, 'list', filters],
    queryFn: ({ pageParam, signal }) => listPayments(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.meta.has_more && last.meta.next_cursor ? last.meta.next_cursor : undefined),
  });
}

/** A 404 (missing, or another account's) is an answer, not a glitch: not retried. */
const noRetryOnNotFound = (failures: number, error: unknown) => failures < 2 && !(error instanceof Error && 'status' in error && error.status === 404);

export function usePayment(reference: string) {
  return useQuery({ queryKey: [...PAYMENTS_QUERY_KEY, 'detail', reference], queryFn: ({ signal }) => getPayment(reference, signal), retry: noRetryOnNotFound });
}

export function usePaymentRefunds(reference: string, enabled: boolean) {
  return useQuery({ queryKey: [...PAYMENTS_QUERY_KEY, 'refunds', reference], queryFn: ({ signal }) => listPaymentRefunds(reference, signal), enabled });
}

export function useRefund(reference: string) {
  return useQuery({ queryKey: ['refunds', reference], queryFn: ({ signal }) => getRefund(reference, signal), retry: noRetryOnNotFound });
}

/** A refund changes the payment, its refunds and the wallet: all are fetched again. */
export function useRefundPayment(reference: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: NewRefund; idempotencyKey: string }) => refundPayment(reference, body, idempotencyKey),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: PAYMENTS_QUERY_KEY }), queryClient.invalidateQueries({ queryKey: ['wallet'] })]),
  });
}
