import { Module } from '@nestjs/common';
import { EventsFeedRepository } from './events-feed.repository';
import { EventsFeedService } from './events-feed.service';

/**
 * The event feed (GET /api/v1/events): reads of the outbox in commit order and the long-poll's
 * one listening connection. Only the API imports it; the capabilities that emit events use
 * EventsModule and open no connection for it.
 */
@Module({
  providers: [EventsFeedService, EventsFeedRepository],
  exports: [EventsFeedService],
})
export class EventsFeedModule {}
