import { decimalRounding, describeInput, ExactDecimal, MAX_RATE_SIGNIFICANT_DIGITS, readDecimal, type Rounding } from './decimal';
import { Share, WHOLE_IN_BASIS_POINTS } from './share';

/** Every amount has exactly this many decimals (all supported currencies use a 2-digit minor unit). */
export const AMOUNT_DECIMAL_PLACES = 2;

const MINOR_PER_MAJOR = 100n;

/**
 * A decimal string Amount.parse reads directly: an optional minus, 1 to 18 whole digits and at most
 * two decimals ("5000.00", "-12.5", "7"). Every other string takes decimal.js's path, which
 * accepts or refuses it as the rules below say; both read these strings alike (amount.parse.spec).
 */
const PLAIN_AMOUNT = /^(-?)(\d{1,18})(?:\.(\d{1,2}))?$/;

/**
 * Largest magnitude an `Amount` may have, in minor units: the range of the
 * PostgreSQL column type `numeric(20,2)`, i.e. ±999,999,999,999,999,999.99.
 * Arithmetic that leaves this range throws rather than producing a value the
 * database would reject.
 */
export const MAX_AMOUNT_MINOR = 10n ** 20n - 1n;

/**
 * Largest magnitude accepted from a JS *number* (strings may go up to
 * `MAX_AMOUNT_MINOR`). Below 10^13, a value with two decimals has at most 15
 * significant digits, so the double a JSON parser produced is guaranteed to
 * print back (`String(n)`) as exactly the decimal the client wrote. Above it,
 * e.g. 12345678901234567.89 arrives as 12345678901234568, and the cents are
 * silently gone; such numbers are refused with reason `imprecise-number`.
 */
export const MAX_EXACT_NUMBER_INPUT = 9_999_999_999_999.99;
const MAX_EXACT_NUMBER_MINOR = 999_999_999_999_999n;

export type InvalidAmountReason =
  /** Not a number, decimal string or Amount. */
  | 'wrong-type'
  /** NaN, Infinity or -Infinity. */
  | 'not-finite'
  /** A string that is not plain decimal notation: "", " 1", "1e3", "0x10", "1,000", ".5", "+1". */
  | 'malformed'
  /** More than two decimal places: "100.101", 0.1 + 0.2, 1e-7. */
  | 'too-many-decimals'
  /** Outside numeric(20,2), on input or as the result of arithmetic. */
  | 'out-of-range'
  /** A JS number too large to carry cents exactly (see MAX_EXACT_NUMBER_INPUT). */
  | 'imprecise-number';

export class InvalidAmountError extends Error {
  override readonly name = 'InvalidAmountError';
  constructor(
    readonly reason: InvalidAmountReason,
    message: string,
  ) {
    super(message);
  }
}

export class InvalidRateError extends Error {
  override readonly name = 'InvalidRateError';
}

/**
 * A multiplier: a non-negative plain decimal string ("0.015", "1.5", "2"), a
 * `Share`, or a bigint integer. Not a JS number, so a float cannot sneak in as a
 * fee rate.
 */
export type RateInput = string | Share | bigint;

/**
 * An exact amount of money in the major unit with exactly two decimals
 * (100.10 NGN), held as a bigint count of minor units (10010 kobo). Immutable.
 * It carries no currency; pair it with a `Currency` where that matters.
 */
export class Amount {
  private constructor(private readonly minorUnits: bigint) {
    Object.freeze(this);
  }

  /**
   * Reads a wire or user value. Accepts:
   * - a finite JS number, read through its shortest round-trip string, so
   *   100.1 is exactly 100.10 and 0.1 + 0.2 (0.30000000000000004) is refused;
   *   magnitude at most `MAX_EXACT_NUMBER_INPUT`;
   * - a plain decimal string ("100.1", "-5", "100.10"); trailing zeros beyond
   *   two places are allowed because they change nothing ("1.500");
   * - an `Amount` (returned as is).
   * Throws `InvalidAmountError` otherwise. Never rounds.
   */
  static parse(input: unknown): Amount {
    if (input instanceof Amount) return input;
    // The form PostgreSQL returns a numeric(20,2) in, and most clients send: read without decimal.js.
    if (typeof input === 'string') {
      const plain = PLAIN_AMOUNT.exec(input);
      if (plain) return Amount.fromPlainParts(plain[1] === '-', plain[2], plain[3]);
    }
    if (typeof input === 'number' && Number.isFinite(input) && Math.abs(input) > MAX_EXACT_NUMBER_INPUT) {
      throw new InvalidAmountError(
        'imprecise-number',
        `amount ${describeInput(input)} is too large to be sent as a JSON number without losing cents; send it as a decimal string`,
      );
    }
    const decimal = readDecimal(input);
    switch (decimal) {
      case 'wrong-type':
        throw new InvalidAmountError('wrong-type', `amount must be a number or a decimal string, got ${describeInput(input)}`);
      case 'not-finite':
        throw new InvalidAmountError('not-finite', `amount must be a finite number, got ${describeInput(input)}`);
      case 'malformed':
        throw new InvalidAmountError('malformed', `amount must be a plain decimal such as "100.10", got ${describeInput(input)}`);
    }
    if (decimal.decimalPlaces() > AMOUNT_DECIMAL_PLACES) {
      throw new InvalidAmountError('too-many-decimals', `amount must have at most ${AMOUNT_DECIMAL_PLACES} decimal places, got ${describeInput(input)}`);
    }
    // Exact: at most 2 decimal places, so ×100 is an integer; toFixed never uses exponent notation.
    return Amount.checked(BigInt(decimal.times(100).toFixed(0)), () => describeInput(input));
  }

  /**
   * From minor units (kobo, cents): 10010n → 100.10. A number must be a safe
   * integer; a string must be an optionally negative integer ("10010").
   */
  static fromMinor(minor: bigint | number | string): Amount {
    if (typeof minor === 'bigint') return Amount.checked(minor, () => `${minor} minor units`);
    if (typeof minor === 'number' && Number.isSafeInteger(minor)) return Amount.checked(BigInt(minor), () => `${minor} minor units`);
    if (typeof minor === 'string' && minor.length <= 64 && /^-?\d+$/.test(minor)) return Amount.checked(BigInt(minor), () => `${minor} minor units`);
    throw new InvalidAmountError(
      typeof minor === 'number' || typeof minor === 'string' ? 'malformed' : 'wrong-type',
      `minor units must be an integer, got ${describeInput(minor)}`,
    );
  }

  static zero(): Amount {
    return Amount.zeroAmount;
  }

  /** Σ amounts; 0.00 for an empty list. */
  static sum(amounts: readonly Amount[]): Amount {
    let total = 0n;
    for (const amount of amounts) total += amount.minorUnits;
    return Amount.checked(total, () => 'sum');
  }

  static max(first: Amount, ...rest: Amount[]): Amount {
    return rest.reduce((best, amount) => (amount.gt(best) ? amount : best), first);
  }

  static min(first: Amount, ...rest: Amount[]): Amount {
    return rest.reduce((best, amount) => (amount.lt(best) ? amount : best), first);
  }

  static isAmount(value: unknown): value is Amount {
    return value instanceof Amount;
  }

  /** Exact minor units: 100.10 → 10010n. What the upstream provider is sent. */
  toMinor(): bigint {
    return this.minorUnits;
  }

  /** Always two decimals, never exponent notation: "100.10", "-0.05", "0.00". The numeric(20,2) form. */
  toString(): string {
    const negative = this.minorUnits < 0n;
    const magnitude = negative ? -this.minorUnits : this.minorUnits;
    const cents = (magnitude % MINOR_PER_MAJOR).toString().padStart(AMOUNT_DECIMAL_PLACES, '0');
    return `${negative ? '-' : ''}${magnitude / MINOR_PER_MAJOR}.${cents}`;
  }

  /**
   * `Number("100.10")` — for JSON output only; never calculate with it. Within
   * ±MAX_EXACT_NUMBER_INPUT the double prints back as exactly this amount (and
   * `Amount.parse` reads it back unchanged). Beyond that it would silently lose
   * cents, so it throws `InvalidAmountError` ('imprecise-number') instead: send
   * such amounts as `toString()`.
   */
  toNumber(): number {
    const magnitude = this.minorUnits < 0n ? -this.minorUnits : this.minorUnits;
    if (magnitude > MAX_EXACT_NUMBER_MINOR) {
      throw new InvalidAmountError('imprecise-number', `${this} cannot be written as a JSON number without losing cents; use toString()`);
    }
    return Number(this.toString());
  }

  /** JSON numbers in the major unit on the wire: `JSON.stringify({ amount })` → `{"amount":100.1}`. */
  toJSON(): number {
    return this.toNumber();
  }

  /**
   * node-postgres calls this for raw query parameters (`query('… > $1', [amount])`),
   * so an Amount is bound as the exact numeric text "100.10" rather than JSON.
   */
  toPostgres(): string {
    return this.toString();
  }

  plus(other: Amount): Amount {
    return Amount.checked(this.minorUnits + other.minorUnits, () => `${this} + ${other}`);
  }

  minus(other: Amount): Amount {
    return Amount.checked(this.minorUnits - other.minorUnits, () => `${this} - ${other}`);
  }

  negate(): Amount {
    return new Amount(-this.minorUnits);
  }

  abs(): Amount {
    return this.minorUnits < 0n ? this.negate() : this;
  }

  /**
   * this × rate, brought onto a cent with the rounding you name. There is
   * deliberately no unrounded variant: an `Amount` always has two decimals.
   * 100.00 × "0.015" = 1.50; 33.33 × "0.015" = 0.49995 → 0.49 ('down'), 0.50 ('half-up').
   */
  multiply(rate: RateInput, rounding: Rounding): Amount {
    const factor = readRate(rate);
    const product = new ExactDecimal(this.minorUnits.toString()).times(factor);
    return Amount.checked(BigInt(product.toDecimalPlaces(0, decimalRounding(rounding)).toFixed(0)), () => `${this} × ${factor.toString()}`);
  }

  /** this × rate, truncated toward zero to the cent (never gives away a fraction of a cent). */
  multiplyAndRoundDown(rate: RateInput): Amount {
    return this.multiply(rate, 'down');
  }

  /** this × rate, to the nearest cent, half a cent rounding away from zero. */
  multiplyAndRoundHalfUp(rate: RateInput): Amount {
    return this.multiply(rate, 'half-up');
  }

  /** `percent` % of this: 1.5 % of 2,500.00 is `amount.percent('1.5', 'half-up')` = 37.50. */
  percent(percent: string | bigint, rounding: Rounding): Amount {
    return this.multiply(readRate(percent).dividedBy(100).toFixed(), rounding);
  }

  isZero(): boolean {
    return this.minorUnits === 0n;
  }

  isNegative(): boolean {
    return this.minorUnits < 0n;
  }

  isPositive(): boolean {
    return this.minorUnits > 0n;
  }

  compare(other: Amount): -1 | 0 | 1 {
    return this.minorUnits < other.minorUnits ? -1 : this.minorUnits > other.minorUnits ? 1 : 0;
  }

  equals(other: Amount): boolean {
    return this.minorUnits === other.minorUnits;
  }

  gt(other: Amount): boolean {
    return this.minorUnits > other.minorUnits;
  }

  gte(other: Amount): boolean {
    return this.minorUnits >= other.minorUnits;
  }

  lt(other: Amount): boolean {
    return this.minorUnits < other.minorUnits;
  }

  lte(other: Amount): boolean {
    return this.minorUnits <= other.minorUnits;
  }

  /** Readable in console.log / util.inspect and jest failure output. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Amount(${this.toString()})`;
  }

  /** `describe` names the value only when it is refused: amounts are made on every request, refusals almost never. */
  private static checked(minor: bigint, describe: () => string): Amount {
    if (minor > MAX_AMOUNT_MINOR || minor < -MAX_AMOUNT_MINOR) {
      throw new InvalidAmountError('out-of-range', `${describe()} is outside the numeric(20,2) range of ±999999999999999999.99`);
    }
    return new Amount(minor);
  }

  /** From PLAIN_AMOUNT's groups: at most 18 whole digits and 2 decimals, so always within numeric(20,2). */
  private static fromPlainParts(negative: boolean, whole: string, fraction: string | undefined): Amount {
    const magnitude = BigInt(whole) * MINOR_PER_MAJOR + (fraction === undefined ? 0n : BigInt(fraction.padEnd(AMOUNT_DECIMAL_PLACES, '0')));
    return new Amount(negative ? -magnitude : magnitude);
  }

  private static readonly zeroAmount = new Amount(0n);
}

/**
 * True when `input` is a finite number or a plain decimal string whose value has
 * at most two decimal places ("100.10", 100.1, "1.500"). Only about decimals:
 * range, sign and limits are `checkAmount`'s job. Never throws.
 */
export function hasAtMostTwoDecimals(input: number | string): boolean {
  const decimal = readDecimal(input);
  return typeof decimal !== 'string' && decimal.decimalPlaces() <= AMOUNT_DECIMAL_PLACES;
}

function readRate(rate: unknown): ExactDecimal {
  if (rate instanceof Share) return new ExactDecimal(rate.toBasisPoints()).dividedBy(WHOLE_IN_BASIS_POINTS);
  if (typeof rate === 'bigint') {
    if (rate < 0n) throw new InvalidRateError(`rate must not be negative, got ${rate}`);
    return checkRatePrecision(new ExactDecimal(rate.toString()), rate.toString());
  }
  if (typeof rate !== 'string') throw new InvalidRateError(`rate must be a decimal string, a Share or a bigint, got ${describeInput(rate)}`);
  const decimal = readDecimal(rate);
  if (typeof decimal === 'string') throw new InvalidRateError(`rate must be a plain decimal string such as "0.015", got ${describeInput(rate)}`);
  if (decimal.isNegative()) throw new InvalidRateError(`rate must not be negative, got ${describeInput(rate)}`);
  return checkRatePrecision(decimal, rate);
}

function checkRatePrecision(decimal: ExactDecimal, text: string): ExactDecimal {
  if (decimal.sd() > MAX_RATE_SIGNIFICANT_DIGITS) {
    throw new InvalidRateError(`rate may have at most ${MAX_RATE_SIGNIFICANT_DIGITS} significant digits, got ${describeInput(text)}`);
  }
  return decimal;
}
