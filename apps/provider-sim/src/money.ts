import { badRequest } from './errors';

/**
 * Money on the wire is always an integer count of minor units (kobo, cents).
 * Inside the simulator we keep amounts as JavaScript numbers that are proven
 * safe integers at the boundary; anything multiplicative (fees) is done in
 * bigint so no intermediate value can lose precision.
 */
export type MinorUnits = number;

export const SUPPORTED_CURRENCIES = ['NGN', 'USD', 'GBP', 'KES'] as const;
export type Currency = (typeof SUPPORTED_CURRENCIES)[number];
export const DEFAULT_CURRENCY: Currency = 'NGN';

/** Every supported currency has two decimal places (100 minor units per major unit). */
const MINOR_UNITS_PER_MAJOR = 100n;

const CURRENCY_SYMBOLS: Record<Currency, string> = {
  NGN: '₦',
  USD: '$',
  GBP: '£',
  KES: 'KSh ',
};

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (SUPPORTED_CURRENCIES as readonly string[]).includes(value);
}

/**
 * Reads a strictly positive integer amount in minor units. Accepts a JSON
 * number or a string of digits (Paystack clients send both); rejects
 * fractions, negatives, zero, exponents and anything beyond 2^53 - 1.
 */
export function parseMinorUnits(value: unknown, field = 'amount'): MinorUnits {
  // Made only when thrown: an error captures a stack trace, which costs more than the parsing.
  const invalid = () => badRequest(`${field} must be a positive integer in minor units (e.g. kobo)`);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value <= 0) throw invalid();
    return value;
  }
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (!/^\d+$/.test(trimmed)) throw invalid();
    const parsed = BigInt(trimmed);
    if (parsed <= 0n || parsed > BigInt(Number.MAX_SAFE_INTEGER)) throw invalid();
    return Number(parsed);
  }
  throw invalid();
}

/** Reads an optional currency code, defaulting to NGN like Paystack does. */
export function parseCurrency(value: unknown): Currency {
  if (value === undefined || value === null || value === '') return DEFAULT_CURRENCY;
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : value;
  if (!isCurrency(upper)) {
    throw badRequest(`Currency not supported. Use one of ${SUPPORTED_CURRENCIES.join(', ')}`);
  }
  return upper;
}

/**
 * Reads a payment's currency and checks the account has it enabled, as Paystack does
 * (PaystackOSS/openapi errors/api-errors.json: "Currency not supported by merchant").
 */
export function parseEnabledCurrency(value: unknown, enabled: readonly Currency[]): Currency {
  const currency = parseCurrency(value);
  if (!enabled.includes(currency)) throw badRequest('Currency not supported by merchant');
  return currency;
}

/**
 * Formats minor units for humans ("₦2,500.00") with integer arithmetic only,
 * so the checkout page never shows a float rounding artefact.
 */
export function formatMoney(amount: MinorUnits, currency: Currency): string {
  const minor = BigInt(amount);
  const major = minor / MINOR_UNITS_PER_MAJOR;
  const fraction = (minor % MINOR_UNITS_PER_MAJOR).toString().padStart(2, '0');
  const grouped = major.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${CURRENCY_SYMBOLS[currency]}${grouped}.${fraction}`;
}
