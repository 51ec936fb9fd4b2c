import type { Currency, MinorUnits } from './money';

/**
 * How the simulated provider prices one successful charge in one currency.
 * Everything is integral: a percentage in basis points and amounts in minor
 * units, so fee calculation is exact and reproducible.
 */
export interface FeeRule {
  /** Percentage fee in basis points: 150 = 1.5 %. */
  percentBasisPoints: number;
  /** Flat fee added on top of the percentage, in minor units. */
  flatFee: MinorUnits;
  /** The flat fee is waived when the charged amount is strictly below this (minor units). */
  flatFeeWaivedBelow?: MinorUnits;
  /** Upper bound on the total fee (minor units). */
  cap?: MinorUnits;
}

export type FeeSchedule = Record<Currency, FeeRule>;

/**
 * Paystack-like defaults. NGN: 1.5 % + ₦100, the ₦100 waived under ₦2,500,
 * total capped at ₦2,000. International cards in USD/GBP: 3.9 %. KES: 2.9 %.
 */
export const DEFAULT_FEE_SCHEDULE: FeeSchedule = {
  NGN: { percentBasisPoints: 150, flatFee: 100_00, flatFeeWaivedBelow: 2_500_00, cap: 2_000_00 },
  USD: { percentBasisPoints: 390, flatFee: 0 },
  GBP: { percentBasisPoints: 390, flatFee: 0 },
  KES: { percentBasisPoints: 290, flatFee: 0 },
};

const BASIS_POINTS_PER_UNIT = 10_000n;

/** Overrides replace whole per-currency rules; unspecified currencies keep the defaults. */
export function resolveFeeSchedule(overrides: Partial<FeeSchedule> = {}): FeeSchedule {
  const schedule: FeeSchedule = { ...DEFAULT_FEE_SCHEDULE };
  for (const [currency, rule] of Object.entries(overrides) as [Currency, FeeRule | undefined][]) {
    if (rule) schedule[currency] = assertValidRule(currency, rule);
  }
  return schedule;
}

/**
 * The provider's fee for a successful charge of `amount` minor units.
 * The percentage part is rounded half-up to the minor unit:
 * floor((amount × bps + 5,000) / 10,000) — exact in bigint.
 */
export function calculateFee(amount: MinorUnits, currency: Currency, schedule: FeeSchedule): MinorUnits {
  const rule = schedule[currency];
  const percentage = (BigInt(amount) * BigInt(rule.percentBasisPoints) + BASIS_POINTS_PER_UNIT / 2n) / BASIS_POINTS_PER_UNIT;
  const flatWaived = rule.flatFeeWaivedBelow !== undefined && amount < rule.flatFeeWaivedBelow;
  let fee = percentage + (flatWaived ? 0n : BigInt(rule.flatFee));
  if (rule.cap !== undefined && fee > BigInt(rule.cap)) fee = BigInt(rule.cap);
  return Number(fee);
}

function assertValidRule(currency: Currency, rule: FeeRule): FeeRule {
  const integral = (value: number | undefined) => value === undefined || (Number.isSafeInteger(value) && value >= 0);
  if (
    !integral(rule.percentBasisPoints) ||
    !integral(rule.flatFee) ||
    !integral(rule.flatFeeWaivedBelow) ||
    !integral(rule.cap)
  ) {
    throw new Error(`Invalid fee rule for ${currency}: every field must be a non-negative integer`);
  }
  return { ...rule };
}
