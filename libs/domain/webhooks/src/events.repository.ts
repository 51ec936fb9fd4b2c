import { Injectable } from '@nestjs/common';
import { type DeveloperContext, preparedStatement, runStatement } from '@gateway/platform';
import { DataSource, type EntityManager } from 'typeorm';
import type { EventEntity } from './event.entity';
import { DELIVERIES_MADE, FAN_OUT_TO_SUBSCRIBERS, fanOutDeliveriesCte } from './webhook-deliveries.repository';

// Plain SQL: these run once per event emitted and per delivery attempt (see docs/benchmarks.md).
// request_id: the API request that caused the event (its context's), null outside one (scans, queue jobs).
const INSERT_SQL = `INSERT INTO events (id, developer_id, mode, name, data, created_at, request_id) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)`;
/** The event and its fan-out to subscribed endpoints in one round trip (the emitting transaction's hot path): a row when it made a delivery. */
const INSERT_WITH_FAN_OUT = preparedStatement(
  'events.insert-with-fan-out',
  `WITH event AS (
    INSERT INTO events (id, developer_id, mode, name, data, created_at, request_id) VALUES ($1, $3, $4, $5, $6::jsonb, $2, $7)),
  ${FAN_OUT_TO_SUBSCRIBERS}`,
);
/**
 * The event and its fan-out as CTEs of a caller's one-statement state change (a payment's success):
 * written only when the caller's CTE `gate` returned a row, the deliveries only for the event
 * written; `data` makes the event's data from its parameter (default: as is). Parameters $1–$7 as
 * INSERT_WITH_FAN_OUT's (EventsService.emitInStatement). The CTE `event_fan_out` has a row when a
 * delivery was made: the caller's query returns its count (`fan_out`), and the caller hands it to
 * EventsService.afterStatement once the statement has returned.
 */
export function eventWithFanOutCtes(gate: string, data: (parameter: string) => string = (parameter) => parameter): string {
  return `event AS (
    INSERT INTO events (id, developer_id, mode, name, data, created_at, request_id)
    SELECT $1::text, $3::uuid, $4::text, $5::text, ${data('$6::jsonb')}, $2::timestamptz, $7::text WHERE EXISTS (SELECT 1 FROM ${gate})
    RETURNING developer_id),
  ${fanOutDeliveriesCte('(SELECT developer_id FROM event)')}, event_fan_out AS (${DELIVERIES_MADE})`;
}
const FIND_SQL = `SELECT id, developer_id AS "developerId", mode, name, data, created_at AS "createdAt"
  FROM events WHERE id = $1 AND developer_id = $2 AND mode = $3`;
/** Served by the partial index events_request (developer_id, mode, request_id). */
const FOR_REQUEST_SQL = `SELECT id, developer_id AS "developerId", mode, name, data, created_at AS "createdAt"
  FROM events WHERE developer_id = $1 AND mode = $2 AND request_id = $3 ORDER BY created_at, id LIMIT $4`;

/** The events table (the outbox): one row per event, written in the transaction of its cause. */
@Injectable()
export class EventsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** In the caller's transaction: the event commits with the change that caused it, or not at all. `requestId`: the API request that caused it. */
  async insert(m: EntityManager, event: EventEntity, requestId: string | undefined): Promise<void> {
    await m.query(INSERT_SQL, [event.id, event.developerId, event.mode, event.name, JSON.stringify(event.data), event.createdAt, requestId ?? null]);
  }

  /**
   * In the caller's transaction, the event and one pending delivery per subscribed
   * endpoint: committed together with the change that caused them, or not at all. True when a
   * delivery was made.
   */
  async insertWithFanOut(m: EntityManager, event: EventEntity, requestId: string | undefined): Promise<boolean> {
    const { rows } = await runStatement(m, INSERT_WITH_FAN_OUT, fanOutParameters(event, requestId));
    return rows.length > 0;
  }

  /** An event of this developer and mode, or null. */
  async find(ctx: DeveloperContext, id: string): Promise<EventEntity | null> {
    const [event] = (await this.dataSource.query(FIND_SQL, [id, ctx.developerId, ctx.mode])) as EventEntity[];
    return event ?? null;
  }

  /** The events the API request `requestId` emitted for this developer and mode, oldest first, at most `limit`. */
  findByRequest(ctx: DeveloperContext, requestId: string, limit: number): Promise<EventEntity[]> {
    return this.dataSource.query(FOR_REQUEST_SQL, [ctx.developerId, ctx.mode, requestId, limit]) as Promise<EventEntity[]>;
  }
}

/** The parameters of INSERT_WITH_FAN_OUT and of eventWithFanOutCtes. */
export function fanOutParameters(event: EventEntity, requestId: string | undefined): unknown[] {
  return [event.id, event.createdAt, event.developerId, event.mode, event.name, JSON.stringify(event.data), requestId ?? null];
}
