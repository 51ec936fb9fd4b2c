import { Injectable } from '@nestjs/common';
import type { Mode } from '@gateway/contracts';
import { Amount, Clock, CURRENCIES, type Currency, type DeveloperContext, DomainError, isCurrency } from '@gateway/platform';
import type { EntityManager } from 'typeorm';
import { addTotals, type AnalyticsSummary, type AnalyticsTimeseries, type AnalyticsTotals, figuresOf, ZERO_TOTALS } from './analytics-figures';
import { type AnalyticsRange, bucketsOf, parseInterval, parseRange } from './analytics-period';
import { analyticsSlot, utcDay } from './analytics-slot';
import { AnalyticsRepository, totalsParameters, type TotalsDelta, type TotalsScope } from './analytics.repository';

/** A payment's final outcome as analytics counts it. */
export type PaymentOutcome = 'succeeded' | 'failed' | 'abandoned';

/**
 * A payment reaching an outcome, told by the payments module inside the transaction that moved it.
 * `previous`: the outcome it is leaving (a late success after a decline or an abandonment, an
 * abandonment after a decline) and when that outcome was recorded, so its count moves instead of
 * being counted twice.
 */
export interface PaymentOutcomeChange {
  developerId: string;
  mode: Mode;
  paymentId: string;
  currency: Currency;
  outcome: PaymentOutcome;
  /** When the outcome happened: a success's paid_at, a decline's or abandonment's recording time. */
  at: Date;
  /** A success's amount and fees (ignored for other outcomes). */
  amount?: Amount;
  platformFee?: Amount;
  providerFee?: Amount;
  previous?: { outcome: 'failed' | 'abandoned'; at: Date } | null;
}

/** A refund the provider processed, told by the refunds module in the transaction that marks it processed. */
export interface ProcessedRefund {
  refundId: string;
  currency: Currency;
  amount: Amount;
  processedAt: Date;
}

/** What a summary or time series is asked for (wire values, validated here). */
export interface AnalyticsQuery {
  from?: string;
  to?: string;
  currency?: string;
  interval?: string;
}

/** Whose figures: one account in one mode, or (developerId null) every account of a mode. */
export type AnalyticsScope = TotalsScope;

/**
 * Payment and refund figures from daily totals kept in the same transaction as each change, so a
 * summary over a year reads at most a few thousand rows however many payments an account has.
 * Days are UTC days: a success counts on the day it was paid, a decline or abandonment on the day
 * it was recorded, a refund on the day it was processed.
 */
@Injectable()
export class AnalyticsService {
  constructor(
    private readonly repository: AnalyticsRepository,
    private readonly clock: Clock,
  ) {}

  /** Records payment outcomes in the caller's transaction (`manager`), one statement for any number of payments. */
  async recordPaymentOutcomes(manager: EntityManager, changes: PaymentOutcomeChange[]): Promise<void> {
    await this.repository.add(manager, outcomeDeltas(changes));
  }

  /** Payment outcomes recorded by a caller's one statement (analyticsTotalsCte): the statement's analytics parameters ($1–$13). */
  paymentOutcomesInStatement(changes: PaymentOutcomeChange[]): unknown[] {
    return totalsParameters(outcomeDeltas(changes));
  }

  /** One payment's outcome, in the caller's transaction. */
  recordPaymentOutcome(manager: EntityManager, change: PaymentOutcomeChange): Promise<void> {
    return this.recordPaymentOutcomes(manager, [change]);
  }

  /** A processed refund, in the caller's transaction. */
  async recordRefundProcessed(manager: EntityManager, ctx: DeveloperContext, refund: ProcessedRefund): Promise<void> {
    const deltas = new Map<string, TotalsDelta>();
    const row = deltaFor(deltas, { developerId: ctx.developerId, mode: ctx.mode, currency: refund.currency, day: utcDay(refund.processedAt), slot: analyticsSlot(refund.refundId) });
    row.refunds = refund.amount;
    row.refundsCount = 1;
    await this.repository.add(manager, [row]);
  }

  /**
   * Per currency (every supported currency, or the one asked for), the figures of the days
   * [from, to] (default: the last 30 UTC days, today included).
   * @throws validation_error, invalid_currency
   */
  async summary(scope: AnalyticsScope, query: AnalyticsQuery): Promise<AnalyticsSummary> {
    const range = parseRange(query, utcDay(this.clock.now()));
    const currencies = currenciesOf(query.currency);
    const days = await this.repository.daily(scope, range.from, range.to, query.currency === undefined ? null : currencies[0]);
    return {
      ...range,
      currencies: currencies.map((currency) => ({
        currency,
        ...figuresOf(days.filter((d) => d.currency === currency).reduce<AnalyticsTotals>(addTotals, ZERO_TOTALS)),
      })),
    };
  }

  /**
   * The summary's figures per day, ISO week (Monday first) or calendar month of [from, to]; every
   * bucket is present (zeros when nothing happened), the first and last cut to the range.
   * @throws validation_error, invalid_currency
   */
  async timeseries(scope: AnalyticsScope, query: AnalyticsQuery): Promise<AnalyticsTimeseries> {
    const range = parseRange(query, utcDay(this.clock.now()));
    const interval = parseInterval(query.interval);
    const currencies = currenciesOf(query.currency);
    const days = await this.repository.daily(scope, range.from, range.to, query.currency === undefined ? null : currencies[0]);
    const buckets = bucketsOf(range, interval);
    return {
      ...range,
      interval,
      currencies: currencies.map((currency) => {
        const ofCurrency = days.filter((d) => d.currency === currency);
        return {
          currency,
          points: buckets.map((bucket) => ({
            start: bucket.start,
            end: bucket.end,
            ...figuresOf(ofCurrency.filter((d) => d.day >= bucket.start && d.day <= bucket.end).reduce<AnalyticsTotals>(addTotals, ZERO_TOTALS)),
          })),
        };
      }),
    };
  }

  /**
   * The days a query covers (its dates, or the defaults), for reads made beside the summary (the
   * payments module's top customers).
   * @throws validation_error
   */
  range(query: AnalyticsQuery): AnalyticsRange {
    return parseRange(query, utcDay(this.clock.now()));
  }
}

/** @throws invalid_currency */
function currenciesOf(currency: string | undefined): Currency[] {
  if (currency === undefined) return [...CURRENCIES];
  if (!isCurrency(currency)) throw new DomainError('invalid_currency', `Currency ${currency} is not supported: use NGN, USD, GBP or KES.`);
  return [currency];
}

function deltaFor(deltas: Map<string, TotalsDelta>, key: Pick<TotalsDelta, 'developerId' | 'mode' | 'currency' | 'day' | 'slot'>): TotalsDelta {
  const id = `${key.developerId}|${key.mode}|${key.currency}|${key.day}|${key.slot}`;
  let delta = deltas.get(id);
  if (!delta) {
    // Keys written out, not spread: on Node 20's V8 an object literal that adds keys after a leading
    // spread (`{ ...key, ...ZERO_TOTALS }`) is given a map of its own every time once its code is
    // optimised, about 0.65 µs a key (docs/benchmarks.md, "Keys added after a spread").
    delta = { developerId: key.developerId, mode: key.mode, currency: key.currency, day: key.day, slot: key.slot, ...ZERO_TOTALS };
    deltas.set(id, delta);
  }
  return delta;
}

/** The totals' changes of these payment outcomes, one delta per row. */
function outcomeDeltas(changes: PaymentOutcomeChange[]): TotalsDelta[] {
  const deltas = new Map<string, TotalsDelta>();
  for (const change of changes) {
    const slot = analyticsSlot(change.paymentId);
    const row = (day: string) => deltaFor(deltas, { developerId: change.developerId, mode: change.mode, currency: change.currency, day, slot });
    const now = row(utcDay(change.at));
    if (change.outcome === 'succeeded') {
      now.succeeded += 1;
      now.volume = now.volume.plus(change.amount ?? Amount.zero());
      now.platformFees = now.platformFees.plus(change.platformFee ?? Amount.zero());
      now.providerFees = now.providerFees.plus(change.providerFee ?? Amount.zero());
    } else if (change.outcome === 'failed') now.failed += 1;
    else now.abandoned += 1;
    if (change.previous) {
      const before = row(utcDay(change.previous.at));
      if (change.previous.outcome === 'failed') before.failed -= 1;
      else before.abandoned -= 1;
    }
  }
  return [...deltas.values()];
}
