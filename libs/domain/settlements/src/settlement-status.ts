import type { SettlementStatus } from '@gateway/contracts';
import type { StatusMoves } from '@gateway/platform';

/**
 * Every status move of a settlement, by name (see StatusMoves). A settlement is requested
 * `pending_approval` with its amount reserved; platform staff approve or reject it; an approved
 * one is claimed for payout, and the provider's word completes or fails it, once.
 */
export const SETTLEMENT_TRANSITIONS = {
  /** Enough different people approved (one, or two above the two-person threshold). */
  approve: { from: ['pending_approval'], to: 'approved' },
  /** Refused by staff: the reservation is released. */
  reject: { from: ['pending_approval'], to: 'rejected' },
  /** Claimed for the provider payout (the reconciliation scan also resumes a claim that died). */
  process: { from: ['approved'], to: 'processing' },
  /** The bank was paid: the reserved amount leaves as a `settlement` entry; `withdrawal.completed`. */
  complete: { from: ['processing'], to: 'completed' },
  /** The provider refused or failed the payout: the reservation is released. */
  fail: { from: ['processing'], to: 'failed' },
} as const satisfies StatusMoves<SettlementStatus>;

export type SettlementTransition = keyof typeof SETTLEMENT_TRANSITIONS;
