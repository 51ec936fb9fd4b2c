import { Injectable } from '@nestjs/common';
import { TEST_EVENT_NAME } from '@gateway/contracts';
import { type DeveloperContext, fromStatesOf, preparedStatement, runStatement, statusLiterals, targetOf } from '@gateway/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { DELIVERY_TRANSITIONS, type DeliveryTransition } from './delivery-status';
import type { EventForDelivery } from './webhook-payload';
import { WebhookDeliveryEntity, type WebhookEndpointEntity } from './webhook.entities';

/** A delivery whose lease the caller holds, until `leaseUntil`; `replay` while it waits for a replayed attempt. */
export type LeasedDelivery = Pick<WebhookDeliveryEntity, 'id' | 'endpointId' | 'eventId' | 'developerId' | 'mode' | 'attempts'> & { leaseUntil: Date; replay: boolean };

/** A delivery with the endpoint it goes to, as a request's trace shows it. */
export type EventDelivery = Pick<WebhookDeliveryEntity, 'id' | 'eventId' | 'status' | 'createdAt'> & { endpointReference: string; endpointUrl: string };

/** A delivery's place in a replay's walk: its creation time as PostgreSQL keeps it (microseconds, text) and its id. */
export interface ReplayCursor {
  id: string;
  createdAt: string;
}

/** What recording an attempt reads under the delivery's row lock, and writes back changed. */
export type LockedDelivery = Pick<WebhookDeliveryEntity, 'id' | 'status' | 'attempts' | 'nextAttemptAt' | 'completedAt' | 'leaseUntil' | 'replayRequestedAt'>;

/** What sending to an endpoint needs, and whether it may still be sent to. */
export type DeliveryTarget = Pick<
  WebhookEndpointEntity,
  'id' | 'reference' | 'developerId' | 'mode' | 'url' | 'webhookVersion' | 'secretCiphertext' | 'previousSecretCiphertext' | 'previousSecretExpiresAt' | 'status' | 'deletedAt'
>;

/** A scheduled attempt's leased delivery, its endpoint and its event, read by the statement that leased it (null: gone). */
export interface ClaimedDelivery {
  delivery: LeasedDelivery;
  endpoint: DeliveryTarget | null;
  event: EventForDelivery | null;
}

/**
 * One pending delivery per subscribed, enabled endpoint of the event's developer and mode, due at
 * once: the CTE `created`. $1 the event's id, $2 its time, $4 mode, $5 the event's name;
 * `developer` the SQL that gives the event's developer ($3 when the event is written by its own
 * statement, EventsRepository.insertWithFanOut).
 */
export function fanOutDeliveriesCte(developer: string): string {
  return `created AS (
    INSERT INTO webhook_deliveries (developer_id, mode, endpoint_id, event_id, status, attempts, next_attempt_at, created_at)
    SELECT e.developer_id, e.mode, e.id, $1, 'pending', 0, $2, $2
      FROM webhook_endpoints e
     WHERE e.developer_id = ${developer} AND e.mode = $4 AND e.deleted_at IS NULL AND e.status = 'enabled' AND $5 = ANY (e.events)
    RETURNING id)`;
}

/** One row when `created` made a delivery: the caller then wakes the dispatchers once it has committed (DispatcherWake). */
export const DELIVERIES_MADE = `SELECT 1 AS made FROM created LIMIT 1`;

/** The tail of the statement that writes an event (EventsRepository.insertWithFanOut), after its `WITH`: $3 the developer. */
export const FAN_OUT_TO_SUBSCRIBERS = `${fanOutDeliveriesCte('$3')}
  ${DELIVERIES_MADE}`;

/** The statuses a disabled endpoint's deliveries are failed from, as literals (the pending index applies under any plan), and how many a statement. */
const FAILING_FROM = statusLiterals(fromStatesOf(DELIVERY_TRANSITIONS, 'fail'));
export const FAIL_BATCH = 1_000;

/** The lease ends on a whole millisecond, so the Date read back compares equal to the stored value. */
const CLAIM_SQL = (condition: string) => `UPDATE webhook_deliveries SET lease_until = date_trunc('milliseconds', clock_timestamp()) + $2::int * interval '1 millisecond'
  WHERE id = $1 AND (lease_until IS NULL OR lease_until < clock_timestamp()) AND (${condition})
  RETURNING id, endpoint_id AS "endpointId", event_id AS "eventId", developer_id AS "developerId", mode, attempts, lease_until AS "leaseUntil",
    (status = 'pending' AND replay_requested_at IS NOT NULL) AS replay`;
const CLAIM_ANY_SQL = CLAIM_SQL('TRUE');

/**
 * Leases the deliveries chosen by `which` (a condition on webhook_deliveries), and reads, in the
 * same statement, each one's endpoint and event (each of the delivery's own developer and mode).
 */
const CLAIM_WITH_TARGETS_SQL = (which: string) => `WITH claimed AS (
    UPDATE webhook_deliveries SET lease_until = date_trunc('milliseconds', clock_timestamp()) + $2::int * interval '1 millisecond'
     WHERE ${which}
    RETURNING id, endpoint_id, event_id, developer_id, mode, attempts, lease_until, replay_requested_at IS NOT NULL AS replay)
  SELECT c.id, c.endpoint_id AS "endpointId", c.event_id AS "eventId", c.developer_id AS "developerId", c.mode, c.attempts, c.lease_until AS "leaseUntil", c.replay,
         w.id AS "w_id", w.reference AS "w_reference", w.developer_id AS "w_developerId", w.mode AS "w_mode", w.url AS "w_url", w.webhook_version AS "w_webhookVersion", w.secret_ciphertext AS "w_secretCiphertext",
         w.previous_secret_ciphertext AS "w_previousSecretCiphertext", w.previous_secret_expires_at AS "w_previousSecretExpiresAt", w.status AS "w_status",
         w.deleted_at AS "w_deletedAt", ev.id AS "ev_id", ev.name AS "ev_name", ev.data AS "ev_data", ev.created_at AS "ev_createdAt"
    FROM claimed c
    LEFT JOIN webhook_endpoints w ON w.id = c.endpoint_id AND w.developer_id = c.developer_id AND w.mode = c.mode
    LEFT JOIN events ev ON ev.id = c.event_id AND ev.developer_id = c.developer_id AND ev.mode = c.mode`;

/** Due and not in flight: what a scheduled attempt may lease. */
const DUE = `status = 'pending' AND next_attempt_at <= $3 AND (lease_until IS NULL OR lease_until < clock_timestamp())`;
/** These deliveries ($1), those of them that are due by $3. */
const CLAIM_DUE_OF_SQL = CLAIM_WITH_TARGETS_SQL(`id = ANY ($1::uuid[]) AND ${DUE}`);
/**
 * At most $1 deliveries due by $3, the longest due first (index webhook_deliveries_due), skipping
 * the rows another dispatcher is leasing or recording right now: several schedulers claiming at
 * once each get their own deliveries, none waits for another.
 */
const CLAIM_NEXT_DUE_SQL = CLAIM_WITH_TARGETS_SQL(
  // ARRAY(…): the locking sub-select runs once, whatever plan the UPDATE gets.
  `id = ANY (ARRAY(SELECT id FROM webhook_deliveries WHERE ${DUE} ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED))`,
);

/**
 * The CTE `deliveries_written` of the statement that records a batch of attempts
 * (attempt-records.statement.ts): writes back rows read by `lock` in the caller's transaction and
 * changed by the caller (status moves per DELIVERY_TRANSITIONS, the schedule, the lease).
 * $1–$7: the rows' columns as arrays (lockedRowsParameters).
 */
export const WRITE_LOCKED_CTE = `deliveries_written AS (
    UPDATE webhook_deliveries d SET status = u.status, attempts = u.attempts, next_attempt_at = u.next_attempt_at, completed_at = u.completed_at,
           lease_until = u.lease_until, replay_requested_at = u.replay_requested_at
      FROM unnest($1::uuid[], $2::text[], $3::int[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[], $7::timestamptz[])
        AS u (id, status, attempts, next_attempt_at, completed_at, lease_until, replay_requested_at)
     WHERE d.id = u.id
    RETURNING d.id)`;

/** WRITE_LOCKED_CTE's parameters. */
export function lockedRowsParameters(rows: LockedDelivery[]): unknown[] {
  return [
    rows.map((r) => r.id),
    rows.map((r) => r.status),
    rows.map((r) => r.attempts),
    rows.map((r) => r.nextAttemptAt),
    rows.map((r) => r.completedAt),
    rows.map((r) => r.leaseUntil),
    rows.map((r) => r.replayRequestedAt),
  ];
}

/** Run by every batch of attempts the dispatcher records: by name, parsed once per connection. */
const LOCK_DELIVERIES = preparedStatement(
  'webhooks.lock-deliveries',
  `SELECT id, status, attempts, next_attempt_at AS "nextAttemptAt", completed_at AS "completedAt", lease_until AS "leaseUntil", replay_requested_at AS "replayRequestedAt"
     FROM webhook_deliveries WHERE id = ANY ($1::uuid[]) ORDER BY id FOR UPDATE`,
);

type ClaimedRow = LeasedDelivery & { [column: `w_${string}` | `ev_${string}`]: unknown };

/**
 * Webhook deliveries (one per event and subscribed endpoint), their status moves, leases (on the
 * database's clock: see WebhookDispatcher) and the claims of due attempts. The worker's statements address a
 * delivery by its id alone (what a claim returns); the tenant is the row's own.
 */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The deliveries of these events (index webhook_deliveries_event), each with its endpoint —
   * deleted endpoints too: their deliveries happened. Oldest first.
   */
  listForEvents(ctx: DeveloperContext, eventIds: string[]): Promise<EventDelivery[]> {
    if (eventIds.length === 0) return Promise.resolve([]);
    return this.dataSource.query(
      `SELECT d.id, d.event_id AS "eventId", d.status, d.created_at AS "createdAt", e.reference AS "endpointReference", e.url AS "endpointUrl"
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.event_id = ANY ($1::text[]) AND d.developer_id = $2 AND d.mode = $3
        ORDER BY d.created_at, d.id`,
      [eventIds, ctx.developerId, ctx.mode],
    ) as Promise<EventDelivery[]>;
  }

  /** A delivery of a test event, attempted once by its creator and never scheduled (so never queued). */
  createUnscheduled(m: EntityManager, ctx: DeveloperContext, endpointId: string, eventId: string, at: Date): Promise<WebhookDeliveryEntity> {
    return m.getRepository(WebhookDeliveryEntity).save({
      developerId: ctx.developerId,
      mode: ctx.mode,
      endpointId,
      eventId,
      status: 'pending',
      attempts: 0,
      // Never picked up by the sweeper: it is attempted once, by whoever created it.
      nextAttemptAt: new Date('9999-01-01T00:00:00Z'),
      leaseUntil: null,
      createdAt: at,
      completedAt: null,
      replayRequestedAt: null,
    });
  }

  /** Takes the delivery's lease for `leaseMs` if nobody holds it. */
  async claim(deliveryId: string, leaseMs: number): Promise<LeasedDelivery | undefined> {
    return updatedRows<LeasedDelivery>(await this.dataSource.query(CLAIM_ANY_SQL, [deliveryId, leaseMs]))[0];
  }

  /**
   * Scheduled attempts, in one statement: leases those of the deliveries that are pending, due by
   * `dueBy` and not in flight, each with its endpoint and event. The others are absent.
   */
  claimDueOf(deliveryIds: string[], leaseMs: number, dueBy: Date): Promise<ClaimedDelivery[]> {
    return this.claimWithTargets(CLAIM_DUE_OF_SQL, [deliveryIds, leaseMs, dueBy]);
  }

  /**
   * Scheduled attempts, in one statement: leases up to `limit` deliveries that are pending, due
   * by `dueBy` and not in flight (whatever the reason they are: a new event, a retry's time, a
   * replay, a lease that expired with its worker), the longest due first, each with its endpoint
   * and event.
   */
  claimNextDue(limit: number, leaseMs: number, dueBy: Date): Promise<ClaimedDelivery[]> {
    return this.claimWithTargets(CLAIM_NEXT_DUE_SQL, [limit, leaseMs, dueBy]);
  }

  private async claimWithTargets(sql: string, params: unknown[]): Promise<ClaimedDelivery[]> {
    const rows = (await this.dataSource.query(sql, params)) as ClaimedRow[];
    // New keys before the spread, never after it (docs/benchmarks.md, "Keys added after a spread").
    return rows.map((row) => ({
      delivery: { id: row.id, endpointId: row.endpointId, eventId: row.eventId, developerId: row.developerId, mode: row.mode, attempts: row.attempts, leaseUntil: row.leaseUntil, replay: row.replay },
      endpoint: row.w_id ? (prefixed(row, 'w_') as DeliveryTarget) : null,
      event: row.ev_id ? ({ mode: row.mode, ...(prefixed(row, 'ev_') as Omit<EventForDelivery, 'mode'>) } as EventForDelivery) : null,
    }));
  }

  /** Locks the deliveries' rows (in id order, as every batch does) for the rest of the caller's transaction. */
  async lock(m: EntityManager, deliveryIds: string[]): Promise<LockedDelivery[]> {
    return (await runStatement<LockedDelivery>(m, LOCK_DELIVERIES, [deliveryIds])).rows;
  }

  /** Ends this attempt's lease, unless it expired and another attempt holds a new one. */
  async release(m: EntityManager, delivery: Pick<LeasedDelivery, 'id' | 'leaseUntil'>): Promise<void> {
    await m.query(`UPDATE webhook_deliveries SET lease_until = NULL WHERE id = $1 AND lease_until = $2`, [delivery.id, delivery.leaseUntil]);
  }

  /**
   * One batch of a replay: the endpoint's deliveries that are `failed`, created in [since, until]
   * and after `after` in (created_at, id) order, test deliveries aside (a test is sent once, by
   * whoever asked for it), at most `limit`, locked for the caller's
   * transaction (a concurrent replay waits here, then no longer finds them failed). Served by
   * the partial index webhook_deliveries_failed (the statuses are literals so that it applies).
   */
  async lockFailedForReplay(
    m: EntityManager,
    endpointId: string,
    window: { since: Date; until: Date },
    after: ReplayCursor | null,
    limit: number,
  ): Promise<ReplayCursor[]> {
    const params: unknown[] = [endpointId, window.since, window.until, limit];
    // The cursor as a row comparison the index scan starts from, so each batch reads only its own rows.
    const from = after ? 'AND (d.created_at, d.id) > ($5::timestamptz, $6::uuid)' : '';
    if (after) params.push(after.createdAt, after.id);
    return (await m.query(
      `SELECT d.id, to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "createdAt" FROM webhook_deliveries d
        WHERE d.endpoint_id = $1 AND d.status IN (${statusLiterals(fromStatesOf(DELIVERY_TRANSITIONS, 'replay'))}) AND d.created_at >= $2 AND d.created_at <= $3 ${from}
          AND (SELECT e.name FROM events e WHERE e.id = d.event_id) <> '${TEST_EVENT_NAME}'
        ORDER BY d.created_at, d.id LIMIT $4
        FOR UPDATE OF d`,
      params,
    )) as ReplayCursor[];
  }

  /**
   * Moves the locked failed deliveries back to `pending`, marked for one replayed attempt due at
   * `at`, in the caller's transaction; true when any moved (the caller wakes the dispatchers on commit).
   */
  async queueReplays(m: EntityManager, deliveryIds: string[], at: Date): Promise<boolean> {
    if (deliveryIds.length === 0) return false;
    const replayed = (await m.query(
      `UPDATE webhook_deliveries SET status = $2, next_attempt_at = $3, replay_requested_at = $3, completed_at = NULL
        WHERE id = ANY ($1::uuid[]) AND status = ANY ($4::text[])
       RETURNING id`,
      [deliveryIds, targetOf(DELIVERY_TRANSITIONS, 'replay'), at, fromStatesOf(DELIVERY_TRANSITIONS, 'replay')],
    )) as unknown[];
    return replayed.length > 0;
  }

  /** Applies the move if the delivery is in one of its starting statuses; true when it moved. */
  async move(m: EntityManager, deliveryId: string, transition: DeliveryTransition, at: Date): Promise<boolean> {
    const [rows] = (await m.query(`UPDATE webhook_deliveries SET status = $2, completed_at = $3 WHERE id = $1 AND status = ANY ($4::text[]) RETURNING id`, [
      deliveryId,
      targetOf(DELIVERY_TRANSITIONS, transition),
      at,
      fromStatesOf(DELIVERY_TRANSITIONS, transition),
    ])) as [unknown[], number];
    return rows.length > 0;
  }

  /**
   * Fails the pending deliveries of an endpoint just disabled, except those an attempt is
   * recording right now (their rows are locked): those are skipped rather than waited for, so the
   * disabling, which holds the endpoint's row, never waits for an attempt that waits for that row.
   * A skipped one is delivered by its attempt, or failed when its next attempt finds the endpoint
   * disabled.
   *
   * They are found through the pending deliveries' index (the retry backlog of every endpoint),
   * never the endpoint's whole history, and failed a bounded batch a statement: an id list of
   * unknown size let the planner join it to the table by a full scan (2,000,000 deliveries of one
   * endpoint: 0.45–0.56 s, against 22 ms a batch).
   */
  async failPendingOfDisabledEndpoint(m: EntityManager, endpointId: string, at: Date): Promise<void> {
    let failed: number;
    do {
      [, failed] = (await m.query(
        `UPDATE webhook_deliveries SET status = $2, completed_at = $3
          WHERE id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND status IN (${FAILING_FROM}) LIMIT ${FAIL_BATCH} FOR UPDATE SKIP LOCKED)`,
        [endpointId, targetOf(DELIVERY_TRANSITIONS, 'fail'), at],
      )) as [unknown[], number];
    } while (failed === FAIL_BATCH);
  }

  /** The same move for every delivery of an endpoint (the endpoint was deleted): its statuses as literals, so the pending index serves it under any plan. */
  async moveAllOfEndpoint(m: EntityManager, endpointId: string, transition: DeliveryTransition, at: Date): Promise<void> {
    await m.query(
      `UPDATE webhook_deliveries SET status = $2, completed_at = $3 WHERE endpoint_id = $1 AND status IN (${statusLiterals(fromStatesOf(DELIVERY_TRANSITIONS, transition))})`,
      [endpointId, targetOf(DELIVERY_TRANSITIONS, transition), at],
    );
  }
}

/** The columns of `row` named `<prefix>field`, as `{ field }`. */
function prefixed(row: Record<string, unknown>, prefix: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).flatMap(([key, value]) => (key.startsWith(prefix) ? [[key.slice(prefix.length), value]] : [])));
}

/** TypeORM answers an UPDATE … RETURNING with [rows, affected count]. */
function updatedRows<T>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}
