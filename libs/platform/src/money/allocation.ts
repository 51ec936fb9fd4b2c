import { Amount } from './amount';
import { describeInput } from './decimal';
import { parseShares, WHOLE_IN_BASIS_POINTS, type Share } from './share';

const WHOLE = BigInt(WHOLE_IN_BASIS_POINTS);

export interface ShareAllocation {
  /** parts[i] = total × shares[i], rounded toward zero to the cent. */
  parts: Amount[];
  /** total − Σ parts: the unshared part plus every rounding crumb. Same sign as the total (or zero). */
  remainder: Amount;
}

/**
 * Splits `total` by fractional shares (each 0 < share ≤ 1 with at most 4
 * decimals, together ≤ 1 — checked exactly, `InvalidShareError` otherwise).
 * Each part is rounded toward zero to the cent; whatever is not handed out,
 * including rounding, is returned as `remainder`, so Σ parts + remainder = total
 * always holds. A 0.3333 share of 100.00 is 33.33 with 66.67 remaining; three
 * 0.3333 shares of 100.00 are 33.33 each with 0.01 remaining.
 *
 * Integer arithmetic only: part = total_minor × basis_points / 10000, truncated.
 */
export function allocateByShares(total: Amount, shares: readonly (string | number | Share)[]): ShareAllocation {
  const parsed = parseShares(shares);
  const totalMinor = total.toMinor();
  // bigint division truncates toward zero, so |part| ≤ |total × share| and the remainder keeps the total's sign.
  const parts = parsed.map((share) => Amount.fromMinor((totalMinor * BigInt(share.toBasisPoints())) / WHOLE));
  return { parts, remainder: total.minus(Amount.sum(parts)) };
}

/**
 * Splits `total` in proportion to non-negative integer weights without losing
 * or creating a cent (largest-remainder method): every part first gets its
 * proportional share truncated to the cent, then the leftover cents go one each
 * to the parts with the largest truncated fractions (earlier parts win ties).
 * Σ parts = total exactly; each part is within one cent of its exact share.
 * 100.00 by [1, 1, 1] → 33.34, 33.33, 33.33. A negative total is split as the
 * mirror image of its absolute value. Weights must not all be zero.
 */
export function allocateByRatios(total: Amount, ratios: readonly (number | bigint)[]): Amount[] {
  if (!Array.isArray(ratios) || ratios.length === 0) throw new RangeError('ratios must be a non-empty array of integer weights');
  const weights = ratios.map((ratio, index) => toWeight(ratio, index));
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0n);
  if (weightSum === 0n) throw new RangeError('ratios must not all be zero');

  const negative = total.isNegative();
  const magnitude = total.abs().toMinor();
  const base = weights.map((weight) => (magnitude * weight) / weightSum);
  const fractions = weights.map((weight) => (magnitude * weight) % weightSum);
  let leftover = magnitude - base.reduce((sum, part) => sum + part, 0n);

  // leftover < number of parts with a non-zero fraction, so zero-weight parts never receive a cent.
  const order = fractions.map((_, index) => index).sort((a, b) => (fractions[a] === fractions[b] ? a - b : fractions[a] > fractions[b] ? -1 : 1));
  for (const index of order) {
    if (leftover === 0n) break;
    base[index] += 1n;
    leftover -= 1n;
  }
  return base.map((minor) => Amount.fromMinor(negative ? -minor : minor));
}

/** Splits `total` into `count` parts as evenly as possible: 100.00 in 3 → 33.34, 33.33, 33.33. */
export function allocateEvenly(total: Amount, count: number): Amount[] {
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`count must be a positive integer, got ${describeInput(count)}`);
  return allocateByRatios(total, new Array<number>(count).fill(1));
}

function toWeight(ratio: unknown, index: number): bigint {
  if (typeof ratio === 'bigint' && ratio >= 0n) return ratio;
  if (typeof ratio === 'number' && Number.isSafeInteger(ratio) && ratio >= 0) return BigInt(ratio);
  throw new RangeError(`ratios[${index}] must be a non-negative integer, got ${describeInput(ratio)}`);
}
