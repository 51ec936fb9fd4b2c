import type { StatusMoves } from '@gateway/platform';
import type { BatchItemStatus, BatchStatus } from './payment-batch.entities';

/** A batch's one move (see StatusMoves): completed once no item is open, with `batch.completed`. */
export const BATCH_TRANSITIONS = {
  complete: { from: ['processing'], to: 'completed' },
} as const satisfies StatusMoves<BatchStatus>;

/** Every status move of a batch item. */
export const BATCH_ITEM_TRANSITIONS = {
  /** A worker takes the item: a new one, or one whose claim went stale (its worker crashed or is too slow). */
  claim: { from: ['pending', 'processing'], to: 'processing' },
  /** Its payment was created (or resumed); a declined charge is `fail` with its payment. */
  succeed: { from: ['processing'], to: 'succeeded' },
  fail: { from: ['processing'], to: 'failed' },
} as const satisfies StatusMoves<BatchItemStatus>;

export type BatchItemTransition = keyof typeof BATCH_ITEM_TRANSITIONS;
