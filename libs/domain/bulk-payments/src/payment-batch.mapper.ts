import type { PaymentBatchResponse } from '@gateway/contracts';
import type { PaymentBatchEntity, PaymentBatchItemEntity } from './payment-batch.entities';

/** The only bridge from a batch and its items to the wire (API and `batch.completed`). */
export function toPaymentBatchResponse(batch: PaymentBatchEntity, items: PaymentBatchItemEntity[]): PaymentBatchResponse {
  const count = (status: string) => items.filter((i) => i.status === status).length;
  return {
    type: 'payments',
    batch_reference: batch.reference,
    status: batch.status,
    total: batch.total,
    counts: { pending: count('pending') + count('processing'), succeeded: count('succeeded'), failed: count('failed') },
    items: items.map((i) => ({
      index: i.position,
      type: i.type,
      status: i.status === 'processing' ? 'pending' : i.status,
      payment_reference: i.paymentReference,
      payment_status: i.paymentStatus,
      error: i.error,
    })),
    created_at: batch.createdAt.toISOString(),
    completed_at: batch.completedAt?.toISOString() ?? null,
  };
}
