export { SubscriptionsModule } from './subscriptions.module';
export { PlansService, type NewPlan, type PlanListQuery } from './plans.service';
export { SubscriptionsService, type NewSubscription } from './subscriptions.service';
export { SubscriptionBillingService, STALE_CLAIM_MS } from './subscription-billing.service';
export { toPlanResponse, toSubscriptionResponse } from './subscription.mapper';
export { addIntervals, periodStart, periodBounds, firstPeriodStartingAtOrAfter, retryAt } from './billing-calendar';
