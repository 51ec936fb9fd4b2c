import { Injectable } from '@nestjs/common';
import type { WebhookAttemptError } from '@gateway/contracts';
import { DataSource, type EntityManager } from 'typeorm';

/** What one logged attempt changes in its endpoint's health. */
export interface AttemptHealth {
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
 * A success ends the run and moves `last_success_at` on. It writes (and so locks) the row only
 * when that changes something a reader could notice: a run to end, or a last success more than a
 * second old. A healthy endpoint receiving every event of a busy account is then written about
 * once a second instead of once per attempt, and its attempts do not queue for its row.
 */
const RECORD_SUCCESS_SQL = `UPDATE webhook_endpoints
    SET last_success_at = GREATEST(last_success_at, $2), consecutive_failed_deliveries = 0, failing_since = NULL
  WHERE id = $1
    AND (last_success_at IS NULL OR last_success_at < $2::timestamptz - interval '1 second' OR consecutive_failed_deliveries > 0 OR failing_since IS NOT NULL)`;

/** A failure is recorded; it starts a run if none is going, and adds a delivery to it when its delivery ended failed. */
const RECORD_FAILURE_SQL = `UPDATE webhook_endpoints
    SET last_failure_at = $2, last_failure_error = $3, last_failure_status_code = $4,
        consecutive_failed_deliveries = consecutive_failed_deliveries + $5, failing_since = COALESCE(failing_since, $2)
  WHERE id = $1`;

/** Day counts are split in this many rows per endpoint and day, by delivery: concurrent attempts rarely share one. */
export const DAY_SHARDS = 16;

const COUNT_ON_DAY_SQL = `INSERT INTO webhook_endpoint_attempt_days AS d (endpoint_id, day, shard, attempts, succeeded) VALUES ($1, $2::date, $3, 1, $4)
  ON CONFLICT (endpoint_id, day, shard) DO UPDATE SET attempts = d.attempts + 1, succeeded = d.succeeded + EXCLUDED.succeeded`;

/**
 * Endpoint health, kept by the transaction that logs each attempt so reading it costs a row and a
 * few day counts, never a pass over the attempt log (docs/benchmarks.md, "Endpoint health").
 */
@Injectable()
export class WebhookEndpointHealthRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * In the transaction that writes the attempt's log, as its LAST statements: a row lock taken
   * here is held only until the commit, and it comes after the delivery's lock, the order every
   * transaction touching both keeps (see WebhookRecoveryService).
   */
  async recordAttempt(m: EntityManager, endpointId: string, attempt: AttemptHealth): Promise<void> {
    if (attempt.success) await m.query(RECORD_SUCCESS_SQL, [endpointId, attempt.at]);
    else await m.query(RECORD_FAILURE_SQL, [endpointId, attempt.at, attempt.error, attempt.statusCode, attempt.endedDeliveryFailed ? 1 : 0]);
    await m.query(COUNT_ON_DAY_SQL, [endpointId, utcDay(attempt.at), dayShard(attempt.deliveryId), attempt.success ? 1 : 0]);
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

/** The delivery's day-count shard: from its id (random), so one delivery's attempts share a row. */
function dayShard(deliveryId: string): number {
  return Number.parseInt(deliveryId.slice(0, 2), 16) % DAY_SHARDS;
}

/** `YYYY-MM-DD` of the instant in UTC. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}
