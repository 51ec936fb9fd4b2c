export { EventsModule } from './events.module';
export { EventsService, newEventId, WEBHOOK_DELIVERY_TASK } from './events.service';
export type { EventEntity as StoredEvent } from './event.entity';
