import { Module } from '@nestjs/common';
import { EventsFeedModule } from '@gateway/domain/webhooks';
import { EventsController } from './events.controller';

@Module({ imports: [EventsFeedModule], controllers: [EventsController] })
export class EventsApiModule {}
