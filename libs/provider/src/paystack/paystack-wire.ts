import { Amount, type Currency, DomainError, isCurrency } from '@gateway/platform';

/**
 * Reading Paystack wire objects defensively: the answer is untrusted input. Anything missing or of
 * the wrong type is a `provider_error` (502), never a half-filled domain object.
 */

export type WireObject = Record<string, unknown>;

export function unexpected(what: string): DomainError {
  return new DomainError('provider_error', `The payment provider sent an unexpected answer (${what}).`);
}

export function asObject(value: unknown, what: string): WireObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw unexpected(what);
  return value as WireObject;
}

export function requiredString(object: WireObject, key: string): string {
  const value = object[key];
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  throw unexpected(key);
}

export function optionalString(object: WireObject, key: string): string | null {
  const value = object[key];
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw unexpected(key);
}

export function optionalDate(object: WireObject, key: string): Date | null {
  const text = optionalString(object, key);
  if (text === null) return null;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw unexpected(key);
  return date;
}

/** Minor units (an integer, as a JSON number or a digit string) → Amount; exact, never a float. */
export function requiredMinor(object: WireObject, key: string): Amount {
  const value = object[key];
  if ((typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && /^\d{1,20}$/.test(value))) {
    return Amount.fromMinor(value);
  }
  throw unexpected(key);
}

export function optionalMinor(object: WireObject, key: string): Amount | null {
  return object[key] === null || object[key] === undefined ? null : requiredMinor(object, key);
}

export function requiredCurrency(object: WireObject, key = 'currency'): Currency {
  const value = object[key];
  if (isCurrency(value)) return value;
  throw unexpected(key);
}

/**
 * Amount → minor units for the provider, exactly: 100.10 → 10010. The provider takes positive
 * integers up to 2^53−1 as JSON numbers; anything else is refused before a request is sent.
 */
export function toWireMinor(amount: Amount): number {
  const minor = amount.toMinor();
  if (minor <= 0n) throw new DomainError('validation_error', 'The amount must be greater than zero.', { amount: ['must be greater than zero'] });
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new DomainError('validation_error', 'The amount is too large for the payment provider.', { amount: ['is too large'] });
  }
  return Number(minor); // exact: a safe integer
}
