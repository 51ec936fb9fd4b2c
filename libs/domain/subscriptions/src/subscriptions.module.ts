import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CustomersModule } from '@gateway/domain/customers';
import { PaymentsModule } from '@gateway/domain/payments';
import { TestClocksModule } from '@gateway/domain/test-clocks';
import { EventsModule } from '@gateway/domain/webhooks';
import { ProviderModule } from '@gateway/provider';
import { PlanEntity } from './plan.entity';
import { PlansRepository } from './plans.repository';
import { PlansService } from './plans.service';
import { SubscriptionBillingService } from './subscription-billing.service';
import { SubscriptionChargeOutcomesService } from './subscription-charge-outcomes.service';
import { SubscriptionChargeEntity, SubscriptionEntity } from './subscription.entity';
import { SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionsService } from './subscriptions.service';

/**
 * Subscription plans, subscriptions and their billing (tables `subscription_plans`,
 * `subscriptions`, `subscription_charges`). Charges go through payments (saved cards); their
 * outcomes come back through PaymentOutcomeHooks, inside the payment's transaction.
 */
@Module({
  imports: [TypeOrmModule.forFeature([PlanEntity, SubscriptionEntity, SubscriptionChargeEntity]), PaymentsModule, CustomersModule, EventsModule, TestClocksModule, ProviderModule],
  providers: [PlansRepository, SubscriptionsRepository, PlansService, SubscriptionsService, SubscriptionBillingService, SubscriptionChargeOutcomesService],
  exports: [PlansService, SubscriptionsService, SubscriptionBillingService],
})
export class SubscriptionsModule {}
