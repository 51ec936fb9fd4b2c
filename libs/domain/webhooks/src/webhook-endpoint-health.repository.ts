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
 * The CTEs of the statement that records a batch of attempts (attempt-records.statement.ts) that
 * keep its endpoints' health, after the deliveries' locks (taken by an earlier statement of the
 * caller's transaction): the order every transaction touching both keeps (see
 * WebhookRecoveryService).
 *
 * `endpoint_runs`: per endpoint, its attempts of the batch applied in their order (runOf): a
 * success ends the run and moves `last_success_at` on; a failure is recorded, starts a run if none
 * is going, and adds a delivery to it when its delivery ended failed. $1 the endpoints, $2 each
 * one's last success of the batch (null: none), $3 and $4 the failed deliveries and first failure
 * since then (or since the batch began), $5–$7 the last failure (null: none).
 *
 * A batch of successes alone writes (and so locks) an endpoint's row only when that changes
 * something a reader could notice: a run to end, or a last success more than a second old. A
 * healthy endpoint receiving every event of a busy account is then written about once a second
 * instead of once per attempt, and its attempts do not queue for its row. The rows to write are
 * locked first, in id order (`endpoints_to_write`), so two batches never wait for each other's
 * endpoint rows in a cycle; then written (`endpoints_written`).
 *
 * `days_counted`: the day counts, $8–$12 (endpoint, day, shard, attempts, successes) in
 * (endpoint, day, shard) order, the order every batch locks those rows in; after the endpoints'
 * rows (its condition reads `endpoints_written`, which runs it first).
 */
export const RECORD_HEALTH_CTES = `endpoint_runs AS (
    SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::int[], $4::timestamptz[], $5::timestamptz[], $6::text[], $7::int[])
      AS r (id, last_success_at, failed_deliveries, first_failure_at, last_failure_at, last_failure_error, last_failure_status_code)
  ), endpoints_to_write AS (
    SELECT e.id FROM webhook_endpoints e JOIN endpoint_runs r ON r.id = e.id
     WHERE r.last_failure_at IS NOT NULL OR e.last_success_at IS NULL OR e.last_success_at < r.last_success_at - interval '1 second'
        OR e.consecutive_failed_deliveries > 0 OR e.failing_since IS NOT NULL
     ORDER BY e.id
       FOR NO KEY UPDATE OF e
  ), endpoints_written AS (
    UPDATE webhook_endpoints e SET
      last_success_at = CASE WHEN r.last_success_at IS NULL THEN e.last_success_at ELSE GREATEST(e.last_success_at, r.last_success_at) END,
      consecutive_failed_deliveries = CASE WHEN r.last_success_at IS NULL THEN e.consecutive_failed_deliveries ELSE 0 END + r.failed_deliveries,
      failing_since = CASE WHEN r.last_success_at IS NULL THEN COALESCE(e.failing_since, r.first_failure_at) ELSE r.first_failure_at END,
      last_failure_at = COALESCE(r.last_failure_at, e.last_failure_at),
      last_failure_error = CASE WHEN r.last_failure_at IS NULL THEN e.last_failure_error ELSE r.last_failure_error END,
      last_failure_status_code = CASE WHEN r.last_failure_at IS NULL THEN e.last_failure_status_code ELSE r.last_failure_status_code END
      FROM endpoint_runs r
     WHERE e.id = r.id AND e.id IN (SELECT id FROM endpoints_to_write)
    RETURNING e.id
  ), days_counted AS (
    INSERT INTO webhook_endpoint_attempt_days AS d (endpoint_id, day, shard, attempts, succeeded)
    SELECT c.* FROM unnest($8::uuid[], $9::date[], $10::int[], $11::int[], $12::int[]) AS c (endpoint_id, day, shard, attempts, succeeded)
     WHERE (SELECT count(*) FROM endpoints_written) >= 0
    ON CONFLICT (endpoint_id, day, shard) DO UPDATE SET attempts = d.attempts + EXCLUDED.attempts, succeeded = d.succeeded + EXCLUDED.succeeded
    RETURNING 1
  )`;

/** RECORD_HEALTH_CTES's parameters. */
export function healthParameters(attempts: AttemptHealth[]): unknown[] {
  const byEndpoint = groupBy(attempts, (a) => a.endpointId);
  const runs = [...byEndpoint].map(([endpointId, group]) => ({ endpointId, ...runOf(group) }));
  const days = [...groupBy(attempts, (a) => `${a.endpointId} ${utcDay(a.at)} ${String(dayShard(a.deliveryId)).padStart(2, '0')}`)].sort(([a], [b]) => (a < b ? -1 : 1));
  return [
    runs.map((run) => run.endpointId),
    runs.map((run) => run.lastSuccessAt),
    runs.map((run) => run.failedDeliveries),
    runs.map((run) => run.firstFailureAt),
    runs.map((run) => run.lastFailure?.at ?? null),
    runs.map((run) => run.lastFailure?.error ?? null),
    runs.map((run) => run.lastFailure?.statusCode ?? null),
    days.map(([, group]) => group[0].endpointId),
    days.map(([, group]) => utcDay(group[0].at)),
    days.map(([, group]) => dayShard(group[0].deliveryId)),
    days.map(([, group]) => group.length),
    days.map(([, group]) => group.filter((a) => a.success).length),
  ];
}

/** Day counts are split in this many rows per endpoint and day, by delivery: concurrent attempts rarely share one. */
export const DAY_SHARDS = 16;

/**
 * Endpoint health, kept by the transaction that logs each attempt so reading it costs a row and a
 * few day counts, never a pass over the attempt log (docs/benchmarks.md, "Endpoint health").
 */
@Injectable()
export class WebhookEndpointHealthRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Attempts and successes of these endpoints on `fromDay` (UTC) and after; an endpoint without any is absent. */
  async windowTotals(endpointIds: string[], fromDay: Date, manager: EntityManager = this.dataSource.manager): Promise<Map<string, AttemptWindow>> {
    if (endpointIds.length === 0) return new Map();
    const rows = (await manager.query(
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
