import type { RefundStatus } from '@gateway/contracts';
import type { StatusMoves } from '@gateway/platform';

/**
 * Every status move of a refund, by name (see StatusMoves). A refund is recorded `pending` with its
 * debit, and settled once, by whichever of the provider's answer or its callback comes first.
 */
export const REFUND_TRANSITIONS = {
  /** The provider paid the customer back: `refund.completed` is sent in the same transaction. */
  process: { from: ['pending'], to: 'processed' },
  /** The provider refused or failed it: the debit is reversed and the payment's amount_refunded given back, in the same transaction. */
  fail: { from: ['pending'], to: 'failed' },
} as const satisfies StatusMoves<RefundStatus>;

export type RefundTransition = keyof typeof REFUND_TRANSITIONS;
