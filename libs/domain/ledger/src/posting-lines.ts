import type { Amount } from '@gateway/platform';
import type { EntryType, PostingLine, SystemAccount } from './ledger.types';

/**
 * Builders for the postings other capabilities make, so nobody hand-builds balanced lines.
 * Every builder returns lines that sum to zero; zero amounts (a waived fee) produce no line.
 */

export interface SplitShareAmount {
  subaccountCode: string;
  amount: Amount;
}

export interface PaymentSuccessAmounts {
  /** What the customer paid. */
  amount: Amount;
  platformFee: Amount;
  providerFee: Amount;
  /** Each split share, already rounded down to the cent (platform/money allocateByShares). */
  shares?: SplitShareAmount[];
}

/** The wallet gains `amount` from the provider and pays the fees and each split share out of it. */
export function paymentSuccessLines({ amount, platformFee, providerFee, shares = [] }: PaymentSuccessAmounts): PostingLine[] {
  return [
    ...transfer('provider_clearing', 'wallet', amount, 'credit', 'Payment received'),
    ...transfer('wallet', 'platform_fees', platformFee, 'fee', 'Platform fee'),
    ...transfer('wallet', 'provider_fees', providerFee, 'fee', 'Provider fee'),
    ...shares.flatMap((share) => transfer('wallet', `subaccount:${share.subaccountCode}`, share.amount, 'debit', `Split share to sub-account ${share.subaccountCode}`)),
  ];
}

/** A refund leaves the available balance back to the provider, which pays the customer. */
export function refundLines(amount: Amount, description = 'Refund'): PostingLine[] {
  return transfer('wallet', 'provider_clearing', amount, 'debit', description);
}

/** A refund the provider could not make gives the money back to the wallet (a correction, never an edit). */
export function refundReversalLines(amount: Amount, description = 'Refund failed: reversed'): PostingLine[] {
  return transfer('provider_clearing', 'wallet', amount, 'credit', description);
}

/** A transfer or withdrawal holds its amount: available → reserved. */
export function reserveLines(amount: Amount, description = 'Reserved for payout'): PostingLine[] {
  return [
    { account: 'wallet', bucket: 'available', entryType: 'debit', amount: amount.negate(), description },
    { account: 'wallet', bucket: 'reserved', entryType: 'debit', amount, description },
  ];
}

/** A failed or reversed payout gives its hold back: reserved → available. */
export function releaseReserveLines(amount: Amount, description = 'Payout failed: funds released'): PostingLine[] {
  return [
    { account: 'wallet', bucket: 'reserved', entryType: 'credit', amount: amount.negate(), description },
    { account: 'wallet', bucket: 'available', entryType: 'credit', amount, description },
  ];
}

/**
 * A payout the bank confirmed leaves the wallet: reserved → bank_settlements. Transfers record
 * it as `debit`, settlements (withdrawals to the merchant's own bank account) as `settlement`.
 */
export function settleReservedLines(amount: Amount, options: { entryType?: Extract<EntryType, 'debit' | 'settlement'>; description?: string } = {}): PostingLine[] {
  const entryType = options.entryType ?? 'settlement';
  const description = options.description ?? (entryType === 'settlement' ? 'Settled to bank' : 'Transfer paid out');
  return [
    { account: 'wallet', bucket: 'reserved', entryType, amount: amount.negate(), description },
    { account: 'bank_settlements', entryType, amount, description },
  ];
}

/** A payout the bank sent back after it was paid (a reversed transfer): bank_settlements → available. */
export function payoutReturnLines(amount: Amount, description = 'Transfer reversed: funds returned'): PostingLine[] {
  return transfer('bank_settlements', 'wallet', amount, 'credit', description);
}

/** A deposit into a dedicated virtual account credits the wallet. */
export function virtualAccountCreditLines(amount: Amount, description = 'Virtual account deposit'): PostingLine[] {
  return transfer('provider_clearing', 'wallet', amount, 'virtual_account_credit', description);
}

/**
 * A lost chargeback: the amount held for the dispute leaves the reserved bucket back to the
 * provider, which returned it to the customer (a `debit`).
 */
export function chargebackLossLines(amount: Amount, description = 'Dispute lost: chargeback debited'): PostingLine[] {
  return [
    { account: 'wallet', bucket: 'reserved', entryType: 'debit', amount: amount.negate(), description },
    { account: 'provider_clearing', entryType: 'debit', amount, description },
  ];
}

/**
 * A deposit into a dedicated virtual account credits the wallet with what the sender transferred,
 * and the wallet pays the provider's and the platform's fees out of it (as a payment does).
 */
export function virtualAccountDepositLines({ amount, platformFee, providerFee }: Omit<PaymentSuccessAmounts, 'shares'>): PostingLine[] {
  return [
    ...virtualAccountCreditLines(amount),
    ...transfer('wallet', 'platform_fees', platformFee, 'fee', 'Platform fee'),
    ...transfer('wallet', 'provider_fees', providerFee, 'fee', 'Provider fee'),
  ];
}

/** `amount` leaves `from` and enters `to` (wallet lines in the available bucket). */
function transfer(from: 'wallet' | SystemAccount, to: 'wallet' | SystemAccount, amount: Amount, entryType: EntryType, description: string): PostingLine[] {
  if (amount.isZero()) return [];
  return [
    line(from, amount.negate(), entryType, description),
    line(to, amount, entryType, description),
  ];
}

function line(account: 'wallet' | SystemAccount, amount: Amount, entryType: EntryType, description: string): PostingLine {
  return account === 'wallet' ? { account, bucket: 'available', entryType, amount, description } : { account, entryType, amount, description };
}
