import type { TransferStatus } from '@gateway/contracts';
import type { StatusMoves } from '@gateway/platform';

/**
 * Every status move of a transfer, by name (see StatusMoves). A transfer is created `pending` with
 * its amount reserved, and settled once by the provider's word — its answer, its callback, or the
 * reconciliation scan's verify, whichever comes first.
 */
export const TRANSFER_TRANSITIONS = {
  /** The bank credited the recipient: the reserved amount is debited; `transfer.success`. */
  succeed: { from: ['pending'], to: 'success' },
  /** The provider refused or failed it: the reservation is released; `transfer.failed`. */
  fail: { from: ['pending'], to: 'failed' },
  /**
   * The money came back: before success the reservation is released, after it the paid amount is
   * credited back; `transfer.failed` with status `reversed` either way.
   */
  reverse: { from: ['pending', 'success'], to: 'reversed' },
} as const satisfies StatusMoves<TransferStatus>;

export type TransferTransition = keyof typeof TRANSFER_TRANSITIONS;
