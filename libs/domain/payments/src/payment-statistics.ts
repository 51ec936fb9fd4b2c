import type { Amount, Currency } from '@gateway/platform';

/**
 * A time window for payment statistics: payments created in [from, to). Creation time, as the
 * payments list's `from`/`to` filters use, so a window's figures match that list filtered alike.
 */
export interface PaymentPeriod {
  from: Date;
  to: Date;
  currency?: Currency;
}

/** One currency's payments in a period: the successful ones' count and exact sum, and the failed or abandoned ones' count. */
export interface PaymentSummary {
  currency: Currency;
  succeededCount: number;
  /** Sum of the successful payments' amounts, added up by PostgreSQL in `numeric`. */
  succeededVolume: Amount;
  /** Failed (declined) and abandoned (never paid) payments: the outcomes a success rate weighs successes against. */
  unsuccessfulCount: number;
}

/** The successful payments of one UTC day in one currency. */
export interface DailyPaymentVolume {
  /** `YYYY-MM-DD`, the UTC day the payments were created on. */
  day: string;
  currency: Currency;
  count: number;
  volume: Amount;
}

/** Successful payments paid in the UTC days [from, to] (both included), for the top-customers ranking. */
export interface PaidPeriod {
  from: string;
  to: string;
  currency?: Currency;
}

/** One of an account's best customers in a currency: its successful payments paid in the period. */
export interface TopCustomer {
  currency: Currency;
  customerReference: string;
  /** The e-mail of the customer's latest payment. */
  email: string;
  count: number;
  /** Sum of the amounts (before fees and refunds), added up by PostgreSQL in `numeric`. */
  volume: Amount;
}
