import { Amount, type Currency } from '@gateway/platform';

/**
 * True when a withdrawal must be confirmed with a TOTP code (spec: "large withdrawals"): above
 * the configured threshold of its currency (LARGE_WITHDRAWAL_THRESHOLD, NGN 1,000,000 by
 * default). A currency without a threshold always counts as large: failing safe costs a code,
 * failing open could cost the balance.
 */
export function isLargeWithdrawal(amount: Amount, currency: Currency, thresholds: Partial<Record<Currency, string>>): boolean {
  const threshold = thresholds[currency];
  return threshold === undefined || amount.gt(Amount.parse(threshold));
}
