import type { LedgerEntryResponse, LedgerVerificationResponse, WalletBalanceResponse } from '@gateway/contracts';
import type { ChainVerification, LedgerEntryView, WalletBalance } from './ledger.types';

/** The only bridge from ledger values to the wire: JSON numbers appear here and nowhere else. */
export function toWalletBalanceResponse(balance: WalletBalance): WalletBalanceResponse {
  return {
    available_balance: balance.available.toNumber(),
    pending_balance: balance.pending.toNumber(),
    reserved_balance: balance.reserved.toNumber(),
    total_balance: balance.total.toNumber(),
    currency: balance.currency,
  };
}

export function toLedgerEntryResponse(entry: LedgerEntryView): LedgerEntryResponse {
  return {
    id: entry.id,
    type: entry.entryType,
    amount: entry.amount.abs().toNumber(),
    direction: entry.amount.isNegative() ? 'debit' : 'credit',
    balance_type: entry.bucket,
    currency: entry.currency,
    reference: entry.reference,
    description: entry.description,
    created_at: entry.createdAt.toISOString(),
  };
}

export function toLedgerVerificationResponse(result: ChainVerification): LedgerVerificationResponse {
  const broken = result.firstBroken;
  return {
    verified: result.verified,
    currency: result.currency,
    entries_checked: result.entriesChecked,
    chains: result.chains,
    first_broken: broken && { currency: broken.currency, chain: broken.chain, reason: broken.reason, entry_id: broken.entryId, reference: broken.reference },
  };
}
