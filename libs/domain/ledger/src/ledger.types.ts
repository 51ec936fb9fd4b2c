import { LEDGER_ENTRY_TYPES, type LedgerChainBreakReason, type LedgerEntryType, WALLET_BALANCE_TYPES, type WalletBalanceType } from '@gateway/contracts';
import type { Amount, Currency } from '@gateway/platform';

// One list with the wire: the ledger's entry types and buckets are the ones the API filters by.
export const ENTRY_TYPES = LEDGER_ENTRY_TYPES;
export type EntryType = LedgerEntryType;

export const BUCKETS = WALLET_BALANCE_TYPES;
export type Bucket = WalletBalanceType;

/**
 * The counterparties of the merchant's wallet. They have no balance rows (a shared row would be
 * the hottest row of all); a system account's balance is the sum of its entries.
 * - provider_clearing: money the provider collected for us or pays out for us (payments, refunds).
 * - platform_fees / provider_fees: fees earned by the platform / charged by the provider.
 * - subaccount:<code>: split shares owed to a sub-account.
 * - bank_settlements: money paid out to a bank account (transfers, withdrawals).
 */
export type SystemAccount = 'provider_clearing' | 'platform_fees' | 'provider_fees' | 'bank_settlements' | `subaccount:${string}`;

export type LedgerAccount = 'wallet' | SystemAccount;

export interface PostingLine {
  account: LedgerAccount;
  /** Wallet lines only; defaults to `available`. */
  bucket?: Bucket;
  entryType: EntryType;
  /** Signed: positive increases the account, negative decreases it. Never zero. */
  amount: Amount;
  description: string;
}

/**
 * One balanced movement of money. (sourceType, sourceId, kind) is unique per developer and mode:
 * the same payment can be credited once, refunded once per refund id, and so on.
 */
export interface Posting {
  currency: Currency;
  /** What caused it: 'payment', 'refund', 'transfer', 'settlement', 'virtual_account_deposit', … */
  sourceType: string;
  /** The internal id of that source. */
  sourceId: string;
  /** Which step of the source: 'success', 'reserve', 'settle', 'release', … */
  kind: string;
  /** The public reference the merchant knows (payment reference, refund reference, …). */
  reference: string;
  lines: PostingLine[];
}

export interface WalletBalance {
  available: Amount;
  pending: Amount;
  reserved: Amount;
  total: Amount;
  currency: Currency;
}

/** One line of the merchant's wallet as the ledger listing shows it. */
export interface LedgerEntryView {
  id: string;
  entryType: EntryType;
  /** Signed: positive credited the wallet, negative debited it. */
  amount: Amount;
  bucket: Bucket;
  currency: Currency;
  reference: string;
  description: string;
  createdAt: Date;
}

export interface LedgerEntryFilter {
  currency?: Currency;
  limit: number;
  cursor?: string;
  type?: EntryType;
  reference?: string;
  /** Inclusive lower bound on created_at. */
  from?: Date;
  /** Inclusive upper bound on created_at. */
  to?: Date;
  /** Exclusive upper bound on created_at (exports' [from, to) ranges). */
  before?: Date;
}

/** Why a wallet's hash chain does not hold; one list with the wire (see LEDGER_CHAIN_BREAK_REASONS). */
export type ChainBreakReason = LedgerChainBreakReason;

/** Where verification found the first break. */
export interface ChainBreak {
  currency: Currency;
  /** The chain (balance slot, 0–15). */
  chain: number;
  reason: ChainBreakReason;
  /** The entry at which the chain breaks; for chain_head_mismatch, the chain's last entry (null when it has none). */
  entryId: string | null;
  reference: string | null;
}

export interface ChainVerification {
  verified: boolean;
  /** The currency verified, or null when every currency's wallet was. */
  currency: Currency | null;
  /** Entries whose hash and link were checked (up to the first break). */
  entriesChecked: number;
  /** Chains walked: 16 per wallet that exists. */
  chains: number;
  firstBroken: ChainBreak | null;
}
