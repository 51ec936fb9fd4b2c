/*
 * Money as the API sends it: JSON numbers in the major unit (1500.5 = ₦1,500.50). They are never
 * used in float arithmetic here: a number is turned into its shortest decimal string (exact for the
 * API's 2-decimal amounts) and Intl formats that string; sums and differences are taken in integer
 * minor units (bigint).
 */

/** The exact decimal text of an API amount: 1500.5 → "1500.5", 1e21 → "1000000000000000000000". */
export function decimalString(amount: number | string): `${number}` {
  if (typeof amount === 'string') return amount as `${number}`;
  const text = String(amount);
  if (!/e/i.test(text)) return text as `${number}`;
  return amount.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 }) as `${number}`;
}

const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(currency: string, locale: string | undefined): Intl.NumberFormat {
  const key = `${locale ?? ''}|${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** `formatMoney(1500.5, 'NGN')` → "₦1,500.50" in the user's locale (or `locale`). */
export function formatMoney(amount: number | string, currency: string, locale?: string): string {
  try {
    return formatterFor(currency, locale).format(decimalString(amount));
  } catch {
    // A currency code Intl does not know: still show the exact amount.
    return `${decimalString(amount)} ${currency}`;
  }
}

/** Digits after the point in a currency's minor unit (NGN, USD, GBP, KES: 2). */
export function minorDigits(currency: string): number {
  try {
    return formatterFor(currency, 'en-US').resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * A decimal amount in integer minor units: ("1500.5", 2) → 150050n. Null when it is not a plain
 * non-negative decimal or has more decimals than the currency has.
 */
export function toMinorUnits(amount: number | string, digits = 2): bigint | null {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(decimalString(amount).trim());
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  if (fraction.length > digits) return null;
  return BigInt(whole + fraction.padEnd(digits, '0'));
}

/** Minor units back to a decimal string: (749950n, 2) → "7499.50". */
export function fromMinorUnits(minor: bigint, digits = 2): `${number}` {
  const negative = minor < 0n;
  const text = (negative ? -minor : minor).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = text.slice(text.length - digits);
  return `${negative ? '-' : ''}${whole}${digits ? `.${fraction}` : ''}` as `${number}`;
}
