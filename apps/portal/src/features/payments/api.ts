import { portalApi, unwrap, unwrapPage, type Page, type Schema } from '../../shared/api';

export type Payment = Schema<'PaymentResponse'>;
export type PaymentStatus = Payment['status'];
export type Refund = Schema<'RefundResponse'>;
export type NewRefund = Schema<'CreatePortalRefundRequest'>;

export const PAYMENT_STATUSES: PaymentStatus[] = ['pending', 'success', 'failed', 'abandoned', 'scheduled', 'cancelled'];

/** The filters the payments page offers; empty ones are not sent. Times are ISO 8601 (from inclusive, to exclusive). */
export interface PaymentFilters {
  status?: PaymentStatus;
  currency?: string;
  /** A customer reference (`CUS_…`). */
  customer?: string;
  from?: string;
  to?: string;
}

export const PAGE_SIZE = 25;

export function listPayments(filters: PaymentFilters, cursor: string | undefined, signal?: AbortSignal): Promise<Page<Payment[]>> {
  const query = {
    limit: PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.currency ? { currency: filters.currency } : {}),
    ...(filters.customer ? { customer: filters.customer } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
  };
  return unwrapPage(portalApi.GET('/api/portal/payments', { params: { query }, signal }));
}

export function getPayment(reference: string, signal?: AbortSignal): Promise<Payment> {
  return unwrap(portalApi.GET('/api/portal/payments/{reference}', { params: { path: { reference } }, signal }));
}

/** A payment's refunds, newest first (a payment has a handful at most: the first page of 100). */
export async function listPaymentRefunds(reference: string, signal?: AbortSignal): Promise<Refund[]> {
  const page = await unwrapPage(portalApi.GET('/api/portal/payments/{reference}/refunds', { params: { path: { reference }, query: { limit: 100 } }, signal }));
  return page.data;
}

/**
 * Refunds the payment. `idempotencyKey` is made once per refund dialog: a second click (or a retry
 * after a lost answer) is the same refund, never a second one.
 */
export function refundPayment(reference: string, body: NewRefund, idempotencyKey: string): Promise<Refund> {
  return unwrap(portalApi.POST('/api/portal/payments/{reference}/refunds', { params: { path: { reference } }, body, headers: { 'Idempotency-Key': idempotencyKey } }));
}

export function getRefund(reference: string, signal?: AbortSignal): Promise<Refund> {
  return unwrap(portalApi.GET('/api/portal/refunds/{reference}', { params: { path: { reference } }, signal }));
}
