import { Injectable } from '@nestjs/common';
import type { WebhookAttemptError } from '@gateway/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { groupBy } from './group-by';

/** What one logged attempt changes in its endpoint's health. */
export interface AttemptHealth {
  endpointId: string;
  deliveryId: string;
  success: boolean;
  error: WebhookAttemptError | null;
  statusCode: number | null;
  at: Date;
  /** This attempt moved its delivery to `failed` (a schedule ran out, a replayed attempt failed): one more in the run. */
  endedDeliveryFailed: boolean;
}

/** Attempts and successes over the health window, per endpoint. */
export interface AttemptWindow {
  attempts: number;
  succeeded: number;
}

export const EMPTY_WINDOW: AttemptWindow = { attempts: 0, succeeded: 0 };

/**
 * The attempts of one batch to one endpoint, applied in their order (one statement per endpoint):
 * a success ends the run and moves `last_success_at` on; a failure is recorded, starts a run if
 * none is going, and adds a delivery to it when its delivery ended failed. $2 is the batch's last
 * success (null: none), $3 and $4 the failed deliveries and first failure since then (or since the
 * batch began), $5–$7 the last failure (null: none).
 *
 * A batch of successes alone writes (and so locks) the row only when that changes something a
 * reader could notice: a run to end, or a last success more than a second old. A healthy endpoint
 * receiving every event of a busy account is then written about once a second instead of once
 * per attempt, and its attempts do not queue for its row.
 */
const RECORD_ATTEMPTS_SQL = `UPDATE webhook_endpoints SET
    last_success_at = CASE WHEN $2::timestamptz IS NULL THEN last_success_at ELSE GREATEST(last_success_at, $2::timestamptz) END,
    consecutive_failed_deliveries = CASE WHEN $2::timestamptz IS NULL THEN consecutive_failed_deliveries ELSE 0 END + $3::int,
    failing_since = CASE WHEN $2::timestamptz IS NULL THEN COALESCE(failing_since, $4::timestamptz) ELSE $4::timestamptz END,
    last_failure_at = COALESCE($5::timestamptz, last_failure_at),
    last_failure_error = CASE WHEN $5::timestamptz IS NULL THEN last_failure_error ELSE $6::text END,
    last_failure_status_code = CASE WHEN $5::timestamptz IS NULL THEN last_failure_status_code ELSE $7::int END
  WHERE id = $1
    AND ($5::timestamptz IS NOT NULL OR last_success_at IS NULL OR last_success_at < $2::timestamptz - interval '1 second' OR consecutive_failed_deliveries > 0 OR failing_since IS NOT NULL)`;

/** Day counts are split in this many rows per endpoint and day, by delivery: concurrent attempts rarely share one. */
export const DAY_SHARDS = 16;

/** Rows in (endpoint, day, shard) order, the order every batch locks them in. */
const COUNT_ON_DAYS_SQL = `INSERT INTO webhook_endpoint_attempt_days AS d (endpoint_id, day, shard, attempts, succeeded)
  SELECT * FROM unnest($1::uuid[], $2::date[], $3::int[], $4::int[], $5::int[])
  ON CONFLICT (endpoint_id, day, shard) DO UPDATE SET attempts = d.attempts + EXCLUDED.attempts, succeeded = d.succeeded + EXCLUDED.succeeded`;

/**
 * Endpoint health, kept by the transaction that logs each attempt so reading it costs a row and a
 * few day counts, never a pass over the attempt log (docs/benchmarks.md, "Endpoint health").
 */
@Injectable()
export class WebhookEndpointHealthRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * In the transaction that writes the attempts' logs, as its LAST statements: a row lock taken
   * here is held only until the commit, and it comes after the deliveries' locks, the order every
   * transaction touching both keeps (see WebhookRecoveryService). Endpoints are written in id
   * order, so two batches never wait for each other's endpoint rows in a cycle.
   */
  async recordAttempts(m: EntityManager, attempts: AttemptHealth[]): Promise<void> {
    const byEndpoint = groupBy(attempts, (a) => a.endpointId);
    for (const endpointId of [...byEndpoint.keys()].sort()) {
      const run = runOf(byEndpoint.get(endpointId) ?? []);
      await m.query(RECORD_ATTEMPTS_SQL, [endpointId, run.lastSuccessAt, run.failedDeliveries, run.firstFailureAt, run.lastFailure?.at ?? null, run.lastFailure?.error ?? null, run.lastFailure?.statusCode ?? null]);
    }
    const days = [...groupBy(attempts, (a) => `${a.endpointId} ${utcDay(a.at)} ${String(dayShard(a.deliveryId)).padStart(2, '0')}`)].sort(([a], [b]) => (a < b ? -1 : 1));
    await m.query(COUNT_ON_DAYS_SQL, [
      days.map(([, group]) => group[0].endpointId),
      days.map(([, group]) => utcDay(group[0].at)),
      days.map(([, group]) => dayShard(group[0].deliveryId)),
      days.map(([, group]) => group.length),
      days.map(([, group]) => group.filter((a) => a.success).length),
    ]);
  }

  /** Attempts and successes of these endpoints on `fromDay` (UTC) and after; an endpoint without any is absent. */
  async windowTotals(endpointIds: string[], fromDay: Date): Promise<Map<string, AttemptWindow>> {
    if (endpointIds.length === 0) return new Map();
    const rows = (await this.dataSource.query(
      `SELECT endpoint_id AS "endpointId", sum(attempts)::int AS attempts, sum(succeeded)::int AS succeeded
         FROM webhook_endpoint_attempt_days
        WHERE endpoint_id = ANY ($1::uuid[]) AND day >= $2::date
        GROUP BY endpoint_id`,
      [endpointIds, utcDay(fromDay)],
    )) as Array<{ endpointId: string } & AttemptWindow>;
    return new Map(rows.map((row) => [row.endpointId, { attempts: row.attempts, succeeded: row.succeeded }]));
  }
}

/** What attempts to one endpoint, in order, leave of its run (see RECORD_ATTEMPTS_SQL). */
export function runOf(attempts: AttemptHealth[]): { lastSuccessAt: Date | null; failedDeliveries: number; firstFailureAt: Date | null; lastFailure: AttemptHealth | null } {
  let lastSuccessAt: Date | null = null;
  let failedDeliveries = 0;
  let firstFailureAt: Date | null = null;
  let lastFailure: AttemptHealth | null = null;
  for (const attempt of attempts) {
    if (attempt.success) {
      if (!lastSuccessAt || attempt.at > lastSuccessAt) lastSuccessAt = attempt.at;
      failedDeliveries = 0;
      firstFailureAt = null;
    } else {
      failedDeliveries += attempt.endedDeliveryFailed ? 1 : 0;
      firstFailureAt ??= attempt.at;
      lastFailure = attempt;
    }
  }
  return { lastSuccessAt, failedDeliveries, firstFailureAt, lastFailure };
}

/** The delivery's day-count shard: from its id (random), so one delivery's attempts share a row. */
function dayShard(deliveryId: string): number {
  return Number.parseInt(deliveryId.slice(0, 2), 16) % DAY_SHARDS;
}

/** `YYYY-MM-DD` of the instant in UTC. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}
