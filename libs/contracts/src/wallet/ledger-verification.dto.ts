import { IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * Why the chain does not hold: `hash_mismatch` (an entry no longer matches its own hash: it was
 * edited), `prev_hash_mismatch` (an entry does not follow the one before it: an entry was removed,
 * inserted or moved), `chain_head_mismatch` (the chain does not end at the entry recorded last:
 * entries were removed from its end, or added behind the ledger's back).
 */
export const LEDGER_CHAIN_BREAK_REASONS = ['hash_mismatch', 'prev_hash_mismatch', 'chain_head_mismatch'] as const;
export type LedgerChainBreakReason = (typeof LEDGER_CHAIN_BREAK_REASONS)[number];

/**
 * `?currency=`: the wallet to verify; every currency's wallet when omitted. Checked by the
 * controller, so an unsupported currency answers `invalid_currency` as the other wallet routes do.
 */
export class VerifyLedgerQuery {
  @IsOptional()
  @IsString()
  @MaxLength(16)
  currency?: string;
}

export class LedgerChainBreakResponse {
  currency: string;
  /** The chain (one per balance slot, 0–15) in which the break is. */
  chain: number;
  reason: LedgerChainBreakReason;
  /** The entry at which the chain breaks (for `chain_head_mismatch`, the chain's last entry; null when it has none). It may be a line of a system account, which the ledger list does not show. */
  entry_id: string | null;
  /** The public reference of that entry's payment, refund, transfer… */
  reference: string | null;
}

export class LedgerVerificationResponse {
  /** True when every entry matches its hash, follows the one before it, and every chain ends where recorded. */
  verified: boolean;
  /** The currency verified; null when every currency's wallet was. */
  currency: string | null;
  /** Entries checked (up to the first break, when there is one). */
  entries_checked: number;
  /** Hash chains walked: 16 per wallet. */
  chains: number;
  /** The first break found, walking chain by chain in posting order; null when verified. */
  first_broken: LedgerChainBreakResponse | null;
}
