import type { DisputeStatus } from '@gateway/contracts';
import type { StatusMoves } from '@gateway/platform';

/**
 * Every status move of a dispute, by name (see StatusMoves). A dispute is created `open` with its
 * hold; each closing move settles the hold in the same transaction (docs/disputes.md).
 */
export const DISPUTE_TRANSITIONS = {
  /** The merchant's evidence was accepted by the provider: the bank now decides. */
  submitEvidence: { from: ['open'], to: 'under_review' },
  /** The bank decided for the merchant (contested or not): the hold is released, `dispute.won`. */
  win: { from: ['open', 'under_review'], to: 'won' },
  /** The bank decided for the customer: the hold is debited, `dispute.lost`. */
  lose: { from: ['open', 'under_review'], to: 'lost' },
  /** The evidence deadline passed with no evidence: lost the same way as `lose`. */
  expire: { from: ['open'], to: 'lost' },
} as const satisfies StatusMoves<DisputeStatus>;

export type DisputeTransition = keyof typeof DISPUTE_TRANSITIONS;
/** The moves that close a dispute (each settles its hold). */
export type DisputeClosing = Exclude<DisputeTransition, 'submitEvidence'>;
