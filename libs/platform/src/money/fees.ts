import { Amount, InvalidAmountError } from './amount';
import type { Rounding } from './decimal';

/**
 * A percentage-plus-flat fee, the shape card processors in our markets use
 * (e.g. 1.5 % + 100.00 NGN, flat part waived under 2,500.00, capped at 2,000.00).
 */
export interface FeeSchedule {
  /** Percentage as a decimal string: "1.5" means 1.5 %. */
  percent: string;
  /** How the percentage part is brought onto a cent. No default: say it. */
  rounding: Rounding;
  /** Added to the percentage part. */
  flat?: Amount;
  /** The flat part is not charged when the amount is below this. */
  flatWaivedBelow?: Amount;
  /** The total fee never exceeds this. */
  cap?: Amount;
}

/**
 * fee = min(cap, round(amount × percent / 100) + flat), flat omitted under
 * `flatWaivedBelow`. Exact; the only rounding is the one the schedule names.
 * Throws `InvalidAmountError` for a negative amount.
 */
export function computeFee(amount: Amount, schedule: FeeSchedule): Amount {
  if (amount.isNegative()) throw new InvalidAmountError('out-of-range', `cannot compute a fee on a negative amount (${amount})`);
  const percentagePart = amount.percent(schedule.percent, schedule.rounding);
  const flatApplies = schedule.flat !== undefined && (schedule.flatWaivedBelow === undefined || amount.gte(schedule.flatWaivedBelow));
  const fee = flatApplies && schedule.flat ? percentagePart.plus(schedule.flat) : percentagePart;
  return schedule.cap !== undefined ? Amount.min(fee, schedule.cap) : fee;
}
