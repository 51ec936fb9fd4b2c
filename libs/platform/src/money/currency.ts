/**
 * The currencies the gateway settles in. All of them have a two-digit minor unit
 * (kobo, cents, pence), which is what lets `Amount` be currency-agnostic: an
 * `Amount` is always "major units with exactly two decimals".
 *
 * Adding a currency with a different exponent (JPY 0, KWD 3) would require
 * `Amount` to carry its currency; `CURRENCY_MINOR_DIGITS` is typed as the literal
 * `2` so that such a change fails to compile here first.
 */
export const CURRENCIES = ['NGN', 'USD', 'GBP', 'KES'] as const;

export type Currency = (typeof CURRENCIES)[number];

/** Digits after the decimal point in every supported currency's minor unit. */
export const CURRENCY_MINOR_DIGITS: Record<Currency, 2> = { NGN: 2, USD: 2, GBP: 2, KES: 2 };

/** Case-sensitive: "ngn" is not a currency; normalise at the edge if you must. */
export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}

export class InvalidCurrencyError extends Error {
  override readonly name = 'InvalidCurrencyError';
  constructor(readonly input: unknown) {
    super(`currency must be one of ${CURRENCIES.join(', ')}, got ${describe(input)}`);
  }
}

/** Returns `value` as a `Currency` or throws `InvalidCurrencyError`. */
export function parseCurrency(value: unknown): Currency {
  if (!isCurrency(value)) throw new InvalidCurrencyError(value);
  return value;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 16 ? `${value.slice(0, 16)}…` : value);
  return typeof value;
}
