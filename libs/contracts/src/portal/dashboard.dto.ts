import type { Mode } from '../common';
import type { PaymentResponse } from '../payments/payment.dto';
import type { WalletBalanceResponse } from '../wallet/wallet.dto';

/** One currency's successful payments in a period. */
export class DashboardVolumeResponse {
  currency: string;
  /** Exact sum of the successful payments' amounts (major unit), added up by the database. */
  volume: number;
  /** How many payments succeeded. */
  count: number;
}

/**
 * A period's payments (created from `from`, inclusive, to `to`, exclusive; UTC): successful volume
 * per currency, and the success rate.
 */
export class DashboardPeriodResponse {
  /** ISO 8601, UTC. */
  from: string;
  /** ISO 8601, UTC: the figures' `as_of`. */
  to: string;
  /** One entry per currency that had a successful payment; none: empty. */
  volumes: DashboardVolumeResponse[];
  /** Successful payments, all currencies. */
  succeeded: number;
  /** Failed (declined) and abandoned (never paid) payments, all currencies. */
  unsuccessful: number;
  /** succeeded / (succeeded + unsuccessful), 0 to 1 with 4 decimals; null when neither happened. Pending payments do not count. */
  success_rate: number | null;
}

/** The successful payments of one UTC day in one currency. */
export class DashboardDayResponse {
  /** YYYY-MM-DD (UTC). */
  date: string;
  currency: string;
  volume: number;
  count: number;
}

/** `GET /api/portal/dashboard`: the session mode's figures in one call. Days are UTC days. */
export class DashboardResponse {
  mode: Mode;
  /** When the figures were taken (ISO 8601; in test mode the account's test clock). */
  as_of: string;
  /** Every supported currency's four balances, as `GET /api/portal/wallet/balance`. */
  balances: WalletBalanceResponse[];
  /** Since 00:00 UTC today. */
  today: DashboardPeriodResponse;
  /** Since 00:00 UTC on the 1st of this month. */
  this_month: DashboardPeriodResponse;
  /** The last 30 UTC days, today included, oldest first; only days and currencies with successful payments. */
  daily_volume: DashboardDayResponse[];
  /** The 5 newest payments, any status. */
  recent_payments: PaymentResponse[];
}
