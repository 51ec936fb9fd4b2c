import type { StatusMoves } from '@gateway/platform';
import type { TransferBatchItemStatus, TransferBatchStatus } from './transfer-batch.entities';

/** A transfer batch's one move (see StatusMoves): completed once no item is open, with `batch.completed`. */
export const TRANSFER_BATCH_TRANSITIONS = {
  complete: { from: ['processing'], to: 'completed' },
} as const satisfies StatusMoves<TransferBatchStatus>;

/** Every status move of a transfer batch item. */
export const TRANSFER_BATCH_ITEM_TRANSITIONS = {
  /** A worker takes the item: a new one, or one whose claim went stale (its worker crashed or is too slow). */
  claim: { from: ['pending', 'processing'], to: 'processing' },
  /** Its transfer was made (or found, on a re-run): the amount is reserved; the transfer's own status tells the rest. */
  succeed: { from: ['processing'], to: 'succeeded' },
  /** No transfer was made: refused (balance, recipient, currency…); the error says why. */
  fail: { from: ['processing'], to: 'failed' },
} as const satisfies StatusMoves<TransferBatchItemStatus>;

export type TransferBatchItemTransition = keyof typeof TRANSFER_BATCH_ITEM_TRANSITIONS;
