import { Amount, InvalidAmountError, type InvalidAmountReason } from './amount';
import type { Currency } from './currency';

export interface AmountLimits {
  /** Largest amount accepted for a single payment (inclusive), whatever the currency. */
  max: Amount;
  /** Smallest amount accepted for a single payment (inclusive), per currency. */
  minimumByCurrency: Record<Currency, Amount>;
}

export const DEFAULT_AMOUNT_LIMITS: AmountLimits = Object.freeze({
  max: Amount.parse('100000000.00'),
  minimumByCurrency: Object.freeze({
    NGN: Amount.parse('100.00'),
    KES: Amount.parse('10.00'),
    USD: Amount.parse('1.00'),
    GBP: Amount.parse('1.00'),
  }),
});

export type AmountProblem = InvalidAmountReason | 'not-positive' | 'below-minimum' | 'above-maximum';

export type AmountCheck = { ok: true; amount: Amount } | { ok: false; problem: AmountProblem; message: string };

/**
 * The whole request-amount rule in one pure call: parses `input` exactly
 * (`Amount.parse`), then requires it to be positive and within
 * `[minimumByCurrency[currency], max]`. Returns a result instead of throwing,
 * with a client-facing message ("amount must be at least 100.00 NGN").
 */
export function checkAmount(input: unknown, currency: Currency, limits: AmountLimits = DEFAULT_AMOUNT_LIMITS): AmountCheck {
  let amount: Amount;
  try {
    amount = Amount.parse(input);
  } catch (error) {
    if (error instanceof InvalidAmountError) return { ok: false, problem: error.reason, message: error.message };
    throw error;
  }
  if (!amount.isPositive()) return { ok: false, problem: 'not-positive', message: 'amount must be greater than 0' };
  const minimum = limits.minimumByCurrency[currency];
  if (minimum === undefined) throw new RangeError(`no minimum amount configured for currency ${String(currency)}`);
  if (amount.lt(minimum)) return { ok: false, problem: 'below-minimum', message: `amount must be at least ${minimum} ${currency}` };
  if (amount.gt(limits.max)) return { ok: false, problem: 'above-maximum', message: `amount must be at most ${limits.max} ${currency}` };
  return { ok: true, amount };
}

/** True when `amount` is within `limits` for `currency` (inclusive at both ends). */
export function isWithinLimits(amount: Amount, currency: Currency, limits: AmountLimits = DEFAULT_AMOUNT_LIMITS): boolean {
  return checkAmount(amount, currency, limits).ok;
}
