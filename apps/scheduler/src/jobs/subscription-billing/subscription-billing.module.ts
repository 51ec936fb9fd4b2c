import { Module } from '@nestjs/common';
import { SubscriptionsModule } from '@gateway/domain/subscriptions';
import { SubscriptionBillingJob } from './subscription-billing.job';

@Module({ imports: [SubscriptionsModule], providers: [SubscriptionBillingJob] })
export class SubscriptionBillingModule {}
