/**
 * Internal: the one decimal.js constructor this module uses. A clone, so no
 * setting leaks into (or in from) other users of the global `Decimal`.
 *
 * precision 40 is enough for every product this module computes exactly: an
 * amount has at most 20 significant digits (numeric(20,2)) and a rate at most
 * `MAX_RATE_SIGNIFICANT_DIGITS` (20), so a product has at most 40.
 * toExpNeg/toExpPos keep `toString()` in plain notation.
 *
 * Not re-exported from the package: callers work with `Amount`, `Share` and
 * decimal strings, never with `Decimal` instances.
 */
import { Decimal } from 'decimal.js';

export const ExactDecimal = Decimal.clone({
  precision: 40,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -9e15,
  toExpPos: 9e15,
  modulo: Decimal.ROUND_DOWN,
  crypto: false,
});

export type ExactDecimal = InstanceType<typeof ExactDecimal>;

export const MAX_RATE_SIGNIFICANT_DIGITS = 20;

/**
 * How a result that falls between two cents is brought onto a cent. Always named
 * at the call site; nothing in this module rounds implicitly.
 *
 * - `down`: toward zero (truncate)        2.349 → 2.34, -2.349 → -2.34
 * - `up`: away from zero                  2.341 → 2.35, -2.341 → -2.35
 * - `half-up`: nearest, ties away from 0  2.345 → 2.35, -2.345 → -2.35
 * - `half-even`: nearest, ties to even    2.345 → 2.34,  2.355 → 2.36
 * - `floor`: toward -∞                    -2.341 → -2.35
 * - `ceil`: toward +∞                     -2.349 → -2.34
 */
export type Rounding = 'down' | 'up' | 'half-up' | 'half-even' | 'floor' | 'ceil';

export const ROUNDINGS: readonly Rounding[] = ['down', 'up', 'half-up', 'half-even', 'floor', 'ceil'];

const DECIMAL_ROUNDING: Record<Rounding, Decimal.Rounding> = {
  down: Decimal.ROUND_DOWN,
  up: Decimal.ROUND_UP,
  'half-up': Decimal.ROUND_HALF_UP,
  'half-even': Decimal.ROUND_HALF_EVEN,
  floor: Decimal.ROUND_FLOOR,
  ceil: Decimal.ROUND_CEIL,
};

export function decimalRounding(rounding: Rounding): Decimal.Rounding {
  const mode = DECIMAL_ROUNDING[rounding];
  if (mode === undefined) throw new TypeError(`unknown rounding ${JSON.stringify(rounding)}; use one of ${ROUNDINGS.join(', ')}`);
  return mode;
}

/** Plain decimal notation: optional minus, digits, optional fraction. No exponent, no spaces, no "+", no ".5". */
const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;
/** Longest string accepted anywhere in this module (keeps hostile input cheap to refuse). */
export const MAX_DECIMAL_TEXT_LENGTH = 64;

export type DecimalTextProblem = 'wrong-type' | 'not-finite' | 'malformed';

/**
 * Reads a JS number or a plain decimal string into an exact decimal.
 *
 * A number is read through its shortest round-trip string (`String(n)`), so
 * `100.1` is exactly 100.1 and `0.1 + 0.2` is exactly 0.30000000000000004 —
 * never through `n * 100`. That string may use exponent notation (`1e-7`,
 * `1e+21`); it is parsed exactly and the caller decides about decimals.
 */
export function readDecimal(input: unknown): ExactDecimal | DecimalTextProblem {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return 'not-finite';
    return new ExactDecimal(String(input));
  }
  if (typeof input === 'string') {
    if (input.length > MAX_DECIMAL_TEXT_LENGTH || !PLAIN_DECIMAL.test(input)) return 'malformed';
    return new ExactDecimal(input);
  }
  return 'wrong-type';
}

export function describeInput(input: unknown): string {
  if (typeof input === 'string') return JSON.stringify(input.length > 32 ? `${input.slice(0, 32)}…` : input);
  if (typeof input === 'number') return String(input);
  if (input === null) return 'null';
  return typeof input;
}
