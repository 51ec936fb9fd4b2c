import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Mode } from '@gateway/contracts';
import { Amount, type Currency, preparedStatement, runStatement } from '@gateway/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { AnalyticsTotals } from './analytics-figures';

/** A change to one row of `analytics_daily_totals` (added to what is there). */
export interface TotalsDelta {
  developerId: string;
  mode: Mode;
  currency: Currency;
  day: string;
  slot: number;
  succeeded: number;
  failed: number;
  abandoned: number;
  volume: Amount;
  platformFees: Amount;
  providerFees: Amount;
  refunds: Amount;
  refundsCount: number;
}

/** Whose figures a read adds up: one account (and mode), or every account of a mode. */
export interface TotalsScope {
  mode: Mode;
  developerId: string | null;
}

// The deltas $1–$13 (parameters from totalsParameters), added to their rows; `condition`: a WHERE
// clause the caller may put on them.
const addSql = (condition: string) => `
  INSERT INTO analytics_daily_totals AS t (developer_id, mode, currency, day, slot, payments_succeeded, payments_failed, payments_abandoned,
                                           volume, platform_fees, provider_fees, refunded_amount, refunds_count)
  SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::date[], $5::smallint[], $6::bigint[], $7::bigint[], $8::bigint[],
                       $9::numeric[], $10::numeric[], $11::numeric[], $12::numeric[], $13::bigint[]) ${condition}
  ON CONFLICT (developer_id, mode, currency, day, slot) DO UPDATE SET
    payments_succeeded = t.payments_succeeded + EXCLUDED.payments_succeeded,
    payments_failed = t.payments_failed + EXCLUDED.payments_failed,
    payments_abandoned = t.payments_abandoned + EXCLUDED.payments_abandoned,
    volume = t.volume + EXCLUDED.volume,
    platform_fees = t.platform_fees + EXCLUDED.platform_fees,
    provider_fees = t.provider_fees + EXCLUDED.provider_fees,
    refunded_amount = t.refunded_amount + EXCLUDED.refunded_amount,
    refunds_count = t.refunds_count + EXCLUDED.refunds_count`;
// Every payment outcome and processed refund runs it: prepared (parsed and planned once per connection).
const ADD = preparedStatement('analytics.add-totals', addSql(''));

/**
 * The deltas added as a CTE of a caller's one-statement state change (a payment's success), only
 * when the caller's CTE `gate` returned a row; parameters $1–$13 from
 * AnalyticsService.paymentOutcomesInStatement.
 */
export function totalsCte(gate: string): string {
  return `analytics_totals AS (${addSql(`WHERE EXISTS (SELECT 1 FROM ${gate})`)} RETURNING 1)`;
}

interface DayRow {
  currency: Currency;
  day: string;
  succeeded: string;
  failed: string;
  abandoned: string;
  volume: string;
  platform_fees: string;
  provider_fees: string;
  refunds: string;
  refunds_count: string;
}

/** `analytics_daily_totals`: written in the callers' transactions, read by day. */
@Injectable()
export class AnalyticsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Adds the deltas in one statement. Rows are taken in key order (a fixed lock order: two
   * transactions touching the same rows never deadlock on them), and deltas of one row must have
   * been merged by the caller (ON CONFLICT updates a row once per statement).
   */
  async add(manager: EntityManager, deltas: TotalsDelta[]): Promise<void> {
    if (!deltas.length) return;
    await runStatement(manager, ADD, totalsParameters(deltas));
  }

  /**
   * The sums per currency and day over [from, to] (slots and, for a platform-wide read, accounts
   * added up by PostgreSQL in `numeric`, read back as text). An account's read uses the primary
   * key; a platform-wide read uses analytics_daily_totals_platform (mode, day).
   */
  async daily(scope: TotalsScope, from: string, to: string, currency: Currency | null, manager: EntityManager = this.dataSource.manager): Promise<Array<{ currency: Currency; day: string } & AnalyticsTotals>> {
    const rows: DayRow[] = await manager.query(
      `SELECT currency, to_char(day, 'YYYY-MM-DD') AS day,
              sum(payments_succeeded)::text AS succeeded, sum(payments_failed)::text AS failed, sum(payments_abandoned)::text AS abandoned,
              sum(volume)::text AS volume, sum(platform_fees)::text AS platform_fees, sum(provider_fees)::text AS provider_fees,
              sum(refunded_amount)::text AS refunds, sum(refunds_count)::text AS refunds_count
         FROM analytics_daily_totals
        WHERE mode = $1 AND ($2::uuid IS NULL OR developer_id = $2) AND day BETWEEN $3::date AND $4::date AND ($5::text IS NULL OR currency = $5)
        GROUP BY currency, day ORDER BY day, currency`,
      [scope.mode, scope.developerId, from, to, currency],
    );
    return rows.map((r) => ({
      currency: r.currency,
      day: r.day,
      succeeded: Number(r.succeeded),
      failed: Number(r.failed),
      abandoned: Number(r.abandoned),
      volume: Amount.parse(r.volume),
      platformFees: Amount.parse(r.platform_fees),
      providerFees: Amount.parse(r.provider_fees),
      refunds: Amount.parse(r.refunds),
      refundsCount: Number(r.refunds_count),
    }));
  }
}

type Key = [string, string, string, string, number];

function keyOf(d: TotalsDelta): Key {
  return [d.developerId, d.mode, d.currency, d.day, d.slot];
}

function compareKeys(a: Key, b: Key): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return 0;
}

/** The parameters of the add statement and of totalsCte: the deltas as arrays, in key order (rows are locked in that order). */
export function totalsParameters(deltas: TotalsDelta[]): unknown[] {
  const sorted = [...deltas].sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
  return [
    sorted.map((d) => d.developerId),
    sorted.map((d) => d.mode),
    sorted.map((d) => d.currency),
    sorted.map((d) => d.day),
    sorted.map((d) => d.slot),
    sorted.map((d) => d.succeeded),
    sorted.map((d) => d.failed),
    sorted.map((d) => d.abandoned),
    sorted.map((d) => d.volume.toString()),
    sorted.map((d) => d.platformFees.toString()),
    sorted.map((d) => d.providerFees.toString()),
    sorted.map((d) => d.refunds.toString()),
    sorted.map((d) => d.refundsCount),
  ];
}
