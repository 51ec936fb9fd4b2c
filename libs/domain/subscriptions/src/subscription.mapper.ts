import type { PlanResponse, SubscriptionResponse } from '@gateway/contracts';
import type { PlanEntity } from './plan.entity';
import type { SubscriptionEntity } from './subscription.entity';

/** The only bridge from a plan row to the wire. */
export function toPlanResponse(p: PlanEntity): PlanResponse {
  return {
    id: p.publicId,
    name: p.name,
    amount: p.amount.toNumber(),
    currency: p.currency,
    interval: p.interval,
    trial_period_days: p.trialPeriodDays,
    active: p.active,
    archived_at: p.archivedAt?.toISOString() ?? null,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

/** The only bridge from a subscription row to the wire (API responses and `subscription.*` events). */
export function toSubscriptionResponse(s: SubscriptionEntity): SubscriptionResponse {
  return {
    id: s.publicId,
    subscription_id: s.publicId,
    customer_reference: s.customerReference,
    plan_id: s.planPublicId,
    authorization_code: s.authorizationCode,
    status: s.status,
    amount: s.amount.toNumber(),
    currency: s.currency,
    interval: s.interval,
    trial_end_at: s.trialEndAt?.toISOString() ?? null,
    billing_anchor_at: s.billingAnchorAt.toISOString(),
    current_period_start: s.currentPeriodStart.toISOString(),
    current_period_end: s.currentPeriodEnd.toISOString(),
    next_billing_at: s.nextBillingAt?.toISOString() ?? null,
    failed_attempts: s.failedAttempts,
    latest_charge: s.latestPaymentReference && s.latestChargeStatus ? { payment_reference: s.latestPaymentReference, status: s.latestChargeStatus } : null,
    paused_at: s.pausedAt?.toISOString() ?? null,
    cancelled_at: s.cancelledAt?.toISOString() ?? null,
    cancellation_reason: s.cancellationReason,
    created_at: s.createdAt.toISOString(),
  };
}
