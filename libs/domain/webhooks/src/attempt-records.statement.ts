import { parameterCount, preparedStatement, runStatement, shiftParameters, timeOrderedUuid } from '@gateway/platform';
import type { EntityManager } from 'typeorm';
import type { WebhookDeliveryLogEntity } from './webhook.entities';
import { type LockedDelivery, lockedRowsParameters, WRITE_LOCKED_CTE } from './webhook-deliveries.repository';
import { type NewDeliveryLog, NUMBERED_LOGS_CTE, numberedLogsParameters } from './webhook-delivery-logs.repository';
import { type AttemptHealth, healthParameters, RECORD_HEALTH_CTES } from './webhook-endpoint-health.repository';

// A batch of finished attempts recorded in ONE statement, each part's SQL written by the
// repository that owns its table: the logs, numbered (webhook_delivery_logs), the deliveries' new
// state (webhook_deliveries) and their endpoints' health with the day counts (webhook_endpoints,
// webhook_endpoint_attempt_days). It runs in the dispatcher's transaction, after the statement
// that locked the deliveries, so a batch is four round trips (BEGIN, the lock, this, COMMIT)
// whatever its size, where one statement per part and per endpoint made it seven and more.
const LOGS_AT = 0;
const DELIVERIES_AT = LOGS_AT + parameterCount(NUMBERED_LOGS_CTE);
const HEALTH_AT = DELIVERIES_AT + parameterCount(WRITE_LOCKED_CTE);

const RECORD_ATTEMPTS = preparedStatement(
  'webhooks.record-attempts',
  `WITH ${shiftParameters(NUMBERED_LOGS_CTE, LOGS_AT)}, ${shiftParameters(WRITE_LOCKED_CTE, DELIVERIES_AT)}, ${shiftParameters(RECORD_HEALTH_CTES, HEALTH_AT)}
  SELECT id, attempt FROM logs`,
);

/** What one batch records; `deliveries` are the rows locked by WebhookDeliveriesRepository.lock in this transaction, changed. */
export interface AttemptRecords {
  logs: NewDeliveryLog[];
  deliveries: LockedDelivery[];
  health: AttemptHealth[];
}

/** Writes the batch in the caller's transaction; answers each log as written, in the order given. */
export async function recordAttempts(m: EntityManager, { logs, deliveries, health }: AttemptRecords): Promise<WebhookDeliveryLogEntity[]> {
  const identified = logs.map((log) => ({ id: timeOrderedUuid(), ...log }));
  const { rows } = await runStatement<{ id: string; attempt: number }>(m, RECORD_ATTEMPTS, [
    ...numberedLogsParameters(identified),
    ...lockedRowsParameters(deliveries),
    ...healthParameters(health),
  ]);
  const numbers = new Map(rows.map((row) => [row.id, row.attempt]));
  return identified.map((log) => {
    const attempt = numbers.get(log.id);
    if (attempt === undefined) throw new Error(`the log of delivery ${log.deliveryId} was not written`);
    // New keys before the spread, never after it (docs/benchmarks.md, "Keys added after a spread").
    return { attempt, ...log };
  });
}
