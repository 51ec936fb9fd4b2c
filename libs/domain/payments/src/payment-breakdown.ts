import { allocateByShares, Amount } from '@gateway/platform';

export interface SplitInstruction {
  subaccount: string;
  /** Exact 4-decimal share text, e.g. "0.2500". */
  share: string;
}

export interface PaymentBreakdown {
  platformFee: Amount;
  providerFee: Amount;
  /** amount − platform fee − provider fee (never negative). */
  net: Amount;
  shares: Array<SplitInstruction & { amount: Amount }>;
  /** What stays in the developer's wallet: net − Σ shares (rounding crumbs included). */
  walletKeeps: Amount;
}

/**
 * Where the money of a successful payment goes, exactly:
 * - the provider's fee is what the provider reports (never more than the amount);
 * - the platform fee never exceeds what the provider fee leaves, so net_amount is never negative;
 * - each split share is a fraction of the payment amount, rounded down to the cent;
 * - fees are borne by the developer's remainder. When shares leave less than the fees (shares
 *   close to 1.0), the shortfall is taken from the shares, last listed first, so no balance
 *   ever goes below zero.
 */
export function breakDownPayment(input: { amount: Amount; platformFee: Amount; providerFee: Amount; splits: readonly SplitInstruction[] }): PaymentBreakdown {
  const { amount } = input;
  const providerFee = Amount.min(input.providerFee, amount);
  const platformFee = Amount.min(input.platformFee, amount.minus(providerFee));
  const net = amount.minus(providerFee).minus(platformFee);

  const parts = allocateByShares(amount, input.splits.map((s) => s.share)).parts;
  let shortfall = Amount.sum(parts).minus(net);
  for (let i = parts.length - 1; i >= 0 && shortfall.isPositive(); i--) {
    const taken = Amount.min(parts[i], shortfall);
    parts[i] = parts[i].minus(taken);
    shortfall = shortfall.minus(taken);
  }
  const shares = input.splits.map((split, i) => ({ ...split, amount: parts[i] }));
  return { platformFee, providerFee, net, shares, walletKeeps: net.minus(Amount.sum(parts)) };
}
