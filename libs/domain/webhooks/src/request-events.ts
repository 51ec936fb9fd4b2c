import type { EventEntity } from './event.entity';
import type { EventDelivery } from './webhook-deliveries.repository';
import type { WebhookDeliveryLogEntity } from './webhook.entities';
import { groupBy } from './group-by';

/** An event an API request emitted, with its delivery to each endpoint and every attempt of each. */
export interface RequestEvent {
  event: Pick<EventEntity, 'id' | 'name' | 'createdAt'>;
  deliveries: Array<{ delivery: EventDelivery; attempts: WebhookDeliveryLogEntity[] }>;
}

/** The events of one request (oldest first) and whether there were more than were read. */
export interface RequestEvents {
  events: RequestEvent[];
  truncated: boolean;
}

/** Puts each delivery under its event and each attempt under its delivery, keeping the rows' order. */
export function groupRequestEvents(
  events: Array<Pick<EventEntity, 'id' | 'name' | 'createdAt'>>,
  deliveries: EventDelivery[],
  attempts: WebhookDeliveryLogEntity[],
): RequestEvent[] {
  const attemptsOf = groupBy(attempts, (attempt) => attempt.deliveryId);
  const deliveriesOf = groupBy(deliveries, (delivery) => delivery.eventId);
  return events.map((event) => ({
    event: { id: event.id, name: event.name, createdAt: event.createdAt },
    deliveries: (deliveriesOf.get(event.id) ?? []).map((delivery) => ({ delivery, attempts: attemptsOf.get(delivery.id) ?? [] })),
  }));
}
