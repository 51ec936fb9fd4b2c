import { describeInput, readDecimal } from './decimal';

/** A share has at most this many decimal places: 0.0001 (one basis point) is the finest. */
export const SHARE_DECIMAL_PLACES = 4;
/** 1.0000 expressed in basis points. */
export const WHOLE_IN_BASIS_POINTS = 10_000;

export type InvalidShareReason = 'wrong-type' | 'not-finite' | 'malformed' | 'too-many-decimals' | 'not-positive' | 'above-one' | 'sum-above-one';

export class InvalidShareError extends Error {
  override readonly name = 'InvalidShareError';
  constructor(
    readonly reason: InvalidShareReason,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A fraction of a total, 0 < share ≤ 1, with at most 4 decimal places
 * ("0.3333", "0.5", 0.25). Stored as an integer number of basis points, so sums
 * and comparisons are exact: [0.1, 0.2, 0.7] sums to exactly 1.
 */
export class Share {
  private constructor(private readonly basisPoints: number) {
    Object.freeze(this);
  }

  /**
   * Accepts a JS number (read via its shortest round-trip string, so 0.1 is
   * exactly 0.1000) or a plain decimal string. Throws `InvalidShareError` for
   * NaN/±Infinity, exponent strings, more than 4 decimal places, ≤ 0 or > 1.
   */
  static parse(input: unknown): Share {
    if (input instanceof Share) return input;
    const decimal = readDecimal(input);
    if (typeof decimal === 'string') {
      throw new InvalidShareError(decimal, `share must be a decimal number between 0 and 1, got ${describeInput(input)}`);
    }
    if (decimal.decimalPlaces() > SHARE_DECIMAL_PLACES) {
      throw new InvalidShareError('too-many-decimals', `share must have at most ${SHARE_DECIMAL_PLACES} decimal places, got ${describeInput(input)}`);
    }
    if (decimal.lte(0)) throw new InvalidShareError('not-positive', `share must be greater than 0, got ${describeInput(input)}`);
    if (decimal.gt(1)) throw new InvalidShareError('above-one', `share must be at most 1, got ${describeInput(input)}`);
    return new Share(decimal.times(WHOLE_IN_BASIS_POINTS).toNumber());
  }

  /** 3333 → 0.3333. Must be an integer in 1..10000. */
  static fromBasisPoints(basisPoints: number): Share {
    if (!Number.isSafeInteger(basisPoints) || basisPoints < 1 || basisPoints > WHOLE_IN_BASIS_POINTS) {
      throw new InvalidShareError('malformed', `basis points must be an integer from 1 to ${WHOLE_IN_BASIS_POINTS}, got ${describeInput(basisPoints)}`);
    }
    return new Share(basisPoints);
  }

  toBasisPoints(): number {
    return this.basisPoints;
  }

  /** Always 4 decimals: "0.3333", "1.0000". */
  toString(): string {
    return formatBasisPoints(this.basisPoints);
  }

  toJSON(): number {
    return Number(this.toString());
  }

  equals(other: Share): boolean {
    return this.basisPoints === other.basisPoints;
  }
}

/** Exact sum of shares, in basis points (integers, so no float error). */
export function sumOfSharesInBasisPoints(shares: readonly Share[]): number {
  return shares.reduce((sum, share) => sum + share.toBasisPoints(), 0);
}

/**
 * True when every entry is a valid share and together they add up to at most
 * 1.0000, compared exactly. [0.1, 0.2, 0.7] → true; 0.3333 × 3 → true;
 * [0.5, 0.5001] → false. Never throws.
 */
export function sharesSumToAtMostOne(shares: readonly unknown[]): boolean {
  try {
    parseShares(shares);
    return true;
  } catch (error) {
    if (error instanceof InvalidShareError) return false;
    throw error;
  }
}

/**
 * Parses every share and checks that they sum to at most 1.0000 exactly.
 * Throws `InvalidShareError` naming the first bad entry, or reason
 * `sum-above-one`.
 */
export function parseShares(shares: readonly unknown[]): Share[] {
  if (!Array.isArray(shares)) throw new InvalidShareError('wrong-type', 'shares must be an array');
  const parsed = shares.map((share, index) => {
    try {
      return Share.parse(share);
    } catch (error) {
      if (error instanceof InvalidShareError) throw new InvalidShareError(error.reason, `shares[${index}]: ${error.message}`);
      throw error;
    }
  });
  const total = sumOfSharesInBasisPoints(parsed);
  if (total > WHOLE_IN_BASIS_POINTS) {
    throw new InvalidShareError('sum-above-one', `shares must add up to at most 1.0000, they add up to ${formatBasisPoints(total)}`);
  }
  return parsed;
}

/** Integer basis points → 4-decimal string (integer arithmetic only). */
function formatBasisPoints(basisPoints: number): string {
  const fraction = basisPoints % WHOLE_IN_BASIS_POINTS;
  const whole = (basisPoints - fraction) / WHOLE_IN_BASIS_POINTS; // exact: both are integers
  return `${whole}.${String(fraction).padStart(SHARE_DECIMAL_PLACES, '0')}`;
}
