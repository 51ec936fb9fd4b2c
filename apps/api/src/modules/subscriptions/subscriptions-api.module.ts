import { Module } from '@nestjs/common';
import { SubscriptionsModule } from '@gateway/domain/subscriptions';
import { PlansController } from './plans.controller';
import { SubscriptionsController } from './subscriptions.controller';

// Plans first: `/subscriptions/plans` must not be read as the subscription id "plans".
@Module({ imports: [SubscriptionsModule], controllers: [PlansController, SubscriptionsController] })
export class SubscriptionsApiModule {}
