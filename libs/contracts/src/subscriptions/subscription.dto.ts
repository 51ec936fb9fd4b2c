import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { ListQueryDto } from '../pagination';
import type { PlanInterval } from './plan.dto';

/**
 * trialing → active (first charge paid) → past_due (a charge failed; retried) → active (paid) or
 * cancelled (retries exhausted); trialing / active / past_due ⇄ paused; anything → cancelled, final
 * (decisions.md, docs/subscriptions.md).
 */
export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'paused', 'cancelled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Why a subscription ended: the merchant cancelled it, or every retry of a charge failed. */
export const SUBSCRIPTION_CANCELLATION_REASONS = ['requested', 'payment_failed'] as const;
export type SubscriptionCancellationReason = (typeof SUBSCRIPTION_CANCELLATION_REASONS)[number];

/** The outcome of a subscription's latest charge, as its payment stands. */
export const SUBSCRIPTION_CHARGE_STATUSES = ['pending', 'success', 'failed'] as const;
export type SubscriptionChargeStatus = (typeof SUBSCRIPTION_CHARGE_STATUSES)[number];

export class CreateSubscriptionRequest {
  /** The customer (`CUS_…`) who pays. @example "CUS_6f1c2a9e0b7d4c3a8e51" */
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  customer_reference: string;

  /** An active plan (`PLN_…`). @example "PLN_3b9e1f0c2d4a5e6f7a8b" */
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  plan_id: string;

  /**
   * A reusable saved card (`AUTH_…`, from one of THIS customer's successful payments): another
   * customer's card, or an unknown or non-reusable one, is 400 `validation_error` naming it.
   * @example "AUTH_8c1d2e3f4a5b6c7d8e9f"
   */
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  authorization_code: string;
}

export class ListSubscriptionsQuery extends ListQueryDto {
  @IsOptional()
  @IsIn(SUBSCRIPTION_STATUSES, { message: `status must be one of ${SUBSCRIPTION_STATUSES.join(', ')}` })
  status?: SubscriptionStatus;

  /** A plan id (`PLN_…`). */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  plan?: string;

  /** A customer reference (`CUS_…`). */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  customer?: string;
}

/** The subscription's latest charge: its payment (see `GET /payments/{reference}`) and how it stands. */
export class SubscriptionChargeResponse {
  payment_reference: string;
  status: SubscriptionChargeStatus;
}

/**
 * A subscription as `GET /subscriptions/{id}` returns it; also the object of every
 * `subscription.*` event.
 */
export class SubscriptionResponse {
  /** `SUB_…`, used in paths. */
  id: string;
  /**
   * The same as `id`: in a v1 (flat) webhook the top-level `id` is the event's (`evt_…`), so this
   * is how a v1 receiver knows which subscription it is about.
   */
  subscription_id: string;
  customer_reference: string;
  plan_id: string;
  /** The saved card charged each period. */
  authorization_code: string;
  status: SubscriptionStatus;
  /** What each period costs, fixed when subscribing (the plan's amount then). */
  amount: number;
  currency: string;
  interval: PlanInterval;
  /** When the free trial ends (the first charge); null without a trial. */
  trial_end_at: string | null;
  /** Every billing date derives from this instant: the same day of month (or of year), clamped to shorter months, never drifting. */
  billing_anchor_at: string;
  /** The trial, or the period last billed (paid, or unpaid while `past_due`). */
  current_period_start: string;
  current_period_end: string;
  /** When the next charge (or retry) is made; null while paused or once cancelled. */
  next_billing_at: string | null;
  /** Failed charges of the current period so far (0 when in good standing). */
  failed_attempts: number;
  latest_charge: SubscriptionChargeResponse | null;
  paused_at: string | null;
  cancelled_at: string | null;
  cancellation_reason: SubscriptionCancellationReason | null;
  created_at: string;
}
