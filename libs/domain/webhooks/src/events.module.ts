import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventEntity } from './event.entity';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/**
 * The outbox alone, for the capabilities that record events (payments, customers, refunds, …):
 * EventsService and nothing that needs the encryption keys or the webhook settings.
 */
@Module({
  imports: [TypeOrmModule.forFeature([EventEntity])],
  providers: [EventsService, EventsRepository, WebhookDeliveriesRepository],
  exports: [EventsService],
})
export class EventsModule {}
