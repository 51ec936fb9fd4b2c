import { Injectable } from '@nestjs/common';
import { type EventDataMap, isEventName, type EventName } from '@gateway/contracts';
import { Clock, type DeveloperContext, DomainError, timeOrderedHex } from '@gateway/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { DispatcherWake } from './dispatcher-wake';
import type { EventEntity } from './event.entity';
import { EventsRepository, fanOutParameters } from './events.repository';

export function newEventId(): string {
  return `evt_${timeOrderedHex(12)}`;
}

/**
 * The events outbox, the one way any capability records an event: every event is written with the
 * change that caused it, never after, and only the webhooks capability writes its tables.
 */
@Injectable()
export class EventsService {
  private readonly wake: DispatcherWake;

  constructor(
    dataSource: DataSource,
    private readonly events: EventsRepository,
    private readonly clock: Clock,
  ) {
    this.wake = DispatcherWake.for(dataSource);
  }

  /**
   * Records the event in the caller's transaction (the outbox) and returns its stable id `evt_…`.
   * Fans out to the developer's subscribed endpoints of the same mode in that same transaction:
   * a rolled-back transaction leaves neither the event nor a delivery, and the dispatchers are woken
   * once it commits.
   * `data` is the merchant-visible wire object (as the API returns it), never provider ids; its type
   * is the one the contract gives this event (EventDataMap), so what is sent is what is documented.
   * @throws validation_error for a name outside the catalog (a programming error)
   */
  async emit<E extends EventName>(manager: EntityManager, ctx: DeveloperContext, name: E, data: EventDataMap[E]): Promise<string> {
    if (!isEventName(name)) throw new DomainError('validation_error', `Unknown event ${String(name)}.`);
    const id = newEventId();
    const now = this.clock.now();
    const deliveriesMade = await this.events.insertWithFanOut(manager, { id, developerId: ctx.developerId, mode: ctx.mode, name, data: data as EventEntity['data'], createdAt: now }, ctx.requestId);
    if (deliveriesMade) this.wake.afterCommit(manager);
    return id;
  }

  /**
   * emit, for a caller that writes the event inside its own one statement (eventWithFanOutCtes,
   * e.g. a payment's success): the statement's event parameters ($1–$7). Once the statement has
   * returned, the caller hands its `fan_out` to afterStatement.
   */
  emitInStatement<E extends EventName>(ctx: DeveloperContext, name: E, data: EventDataMap[E]): unknown[] {
    if (!isEventName(name)) throw new DomainError('validation_error', `Unknown event ${String(name)}.`);
    return fanOutParameters({ id: newEventId(), developerId: ctx.developerId, mode: ctx.mode, name, data: data as EventEntity['data'], createdAt: this.clock.now() }, ctx.requestId);
  }

  /** A statement holding an event (emitInStatement) has committed; `fanOut`, its count of deliveries made, wakes the dispatchers. */
  afterStatement(fanOut: number | string | null): void {
    if (Number(fanOut) > 0) this.wake.now();
  }

  /** An event of this developer and mode, or null. */
  find(ctx: DeveloperContext, id: string): Promise<EventEntity | null> {
    return this.events.find(ctx, id);
  }
}
