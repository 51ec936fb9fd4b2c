import { CURRENCIES, type Currency, DomainError, isCurrency } from '@gateway/platform';

// Shared by the merchant API's wallet routes and the portal's, so both read a query the same way.

/** @throws invalid_currency */
export function currencyOf(value: string | undefined): Currency | undefined {
  if (value === undefined) return undefined;
  if (!isCurrency(value)) throw new DomainError('invalid_currency', `Currency must be one of ${CURRENCIES.join(', ')}.`);
  return value;
}

/** A date alone as `to` includes that whole day (UTC). */
export function endOfDayIfDateOnly(value: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T23:59:59.999Z`) : new Date(value);
}
