import type { TransferBatchResponse, TransferStatus } from '@gateway/contracts';
import type { TransferBatchEntity, TransferBatchItemEntity } from './transfer-batch.entities';

/** A batch with its items, and the current status of the transfers they made (by reference). */
export interface TransferBatchView {
  batch: TransferBatchEntity;
  items: TransferBatchItemEntity[];
  transferStatuses: Map<string, TransferStatus>;
}

/** The only bridge from a transfer batch to the wire (API responses and, without items, `batch.completed`). */
export function toTransferBatchResponse({ batch, items, transferStatuses }: TransferBatchView): TransferBatchResponse {
  const counts = { pending: 0, succeeded: 0, failed: 0 };
  for (const item of items) counts[item.status === 'processing' ? 'pending' : item.status] += 1;
  return {
    type: 'transfers',
    batch_reference: batch.reference,
    status: batch.status,
    currency: batch.currency,
    total: batch.total,
    total_amount: batch.totalAmount.toNumber(),
    counts,
    items: items.map((i) => ({
      index: i.position,
      amount: i.amount.toNumber(),
      status: i.status === 'processing' ? 'pending' : i.status,
      transfer_reference: i.transferReference,
      transfer_status: (i.transferReference && transferStatuses.get(i.transferReference)) || null,
      error: i.error,
    })),
    created_at: batch.createdAt.toISOString(),
    completed_at: batch.completedAt?.toISOString() ?? null,
  };
}
