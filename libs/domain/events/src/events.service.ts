import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EventDataMap, isEventName, type EventName } from '@gateway/contracts';
import { Clock, type DeveloperContext, DomainError } from '@gateway/platform';
import { randomBytes } from 'node:crypto';
import { type EntityManager, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { EventEntity } from './event.entity';

/** The job-queue task that attempts one webhook delivery (run by the scheduler's worker). */
export const WEBHOOK_DELIVERY_TASK = 'webhook_delivery';

export function newEventId(): string {
  return `evt_${randomBytes(12).toString('hex')}`;
}

/** The events outbox: every event is written with the change that caused it, never after. */
@Injectable()
export class EventsService {
  constructor(
    @InjectRepository(EventEntity) private readonly events: Repository<EventEntity>,
    private readonly clock: Clock,
  ) {}

  /**
   * Records the event in the caller's transaction (the outbox) and returns its stable id `evt_…`.
   * Fans out to the developer's subscribed endpoints of the same mode in that same transaction:
   * a rolled-back transaction leaves neither the event nor a delivery.
   * `data` is the merchant-visible wire object (as the API returns it), never provider ids; its type
   * is the one the contract gives this event (EventDataMap), so what is sent is what is documented.
   * @throws validation_error for a name outside the catalog (a programming error)
   */
  async emit<E extends EventName>(manager: EntityManager, ctx: DeveloperContext, name: E, data: EventDataMap[E]): Promise<string> {
    if (!isEventName(name)) throw new DomainError('validation_error', `Unknown event ${String(name)}.`);
    const id = newEventId();
    await manager
      .createQueryBuilder()
      .insert()
      .into(EventEntity)
      .values({
        id,
        developerId: ctx.developerId,
        mode: ctx.mode,
        name,
        data: data as QueryDeepPartialEntity<EventEntity>['data'],
        createdAt: this.clock.now(),
      })
      .execute();
    await this.fanOut(manager, ctx, name, id);
    return id;
  }

  /**
   * One pending delivery per subscribed endpoint of the same developer and mode, and its job,
   * in the emitting transaction: committed together with the change, or not at all.
   */
  private async fanOut(manager: EntityManager, ctx: DeveloperContext, name: EventName, eventId: string): Promise<void> {
    await manager.query(
      `WITH created AS (
         INSERT INTO webhook_deliveries (developer_id, mode, endpoint_id, event_id, status, attempts, next_attempt_at, created_at)
         SELECT e.developer_id, e.mode, e.id, $1, 'pending', 0, $2, $2
           FROM webhook_endpoints e
          WHERE e.developer_id = $3 AND e.mode = $4 AND e.deleted_at IS NULL AND $5 = ANY (e.events)
         RETURNING id)
       -- The job enqueueDelivery queues (platform enqueueJob), for every delivery in one statement.
       SELECT graphile_worker.add_job($6, json_build_object('delivery_id', created.id::text), run_at => $2, job_key => $6 || ':' || created.id::text, max_attempts => 5)
         FROM created`,
      [eventId, this.clock.now(), ctx.developerId, ctx.mode, name, WEBHOOK_DELIVERY_TASK],
    );
  }

  /** An event of this developer and mode, or null. */
  find(ctx: DeveloperContext, id: string): Promise<EventEntity | null> {
    return this.events.findOneBy({ id, developerId: ctx.developerId, mode: ctx.mode });
  }
}
