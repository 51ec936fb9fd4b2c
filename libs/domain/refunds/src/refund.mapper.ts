import type { RefundResponse } from '@gateway/contracts';
import type { RefundEntity } from './refund.entity';

/** The only bridge from a refund row to the wire (API responses and `refund.completed`). */
export function toRefundResponse(r: RefundEntity): RefundResponse {
  return {
    reference: r.reference,
    payment_reference: r.paymentReference,
    amount: r.amount.toNumber(),
    currency: r.currency,
    reason: r.reason,
    status: r.status,
    created_at: r.createdAt.toISOString(),
    processed_at: r.processedAt?.toISOString() ?? null,
  };
}
