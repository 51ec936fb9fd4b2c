import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Mode, PlanInterval, SubscriptionCancellationReason, SubscriptionChargeStatus, SubscriptionStatus } from '@gateway/contracts';
import { type Amount, amountTransformer, type Currency } from '@gateway/platform';

@Entity({ name: 'subscriptions' })
export class SubscriptionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  /** `SUB_…`: the subscription's id on the wire. */
  @Column('text', { name: 'public_id' })
  publicId: string;

  @Column('uuid', { name: 'plan_id' })
  planId: string;

  @Column('text', { name: 'plan_public_id' })
  planPublicId: string;

  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  @Column('text', { name: 'customer_reference' })
  customerReference: string;

  /** The saved card's e-mail: what each charge is made for (the card must match it). */
  @Column('text')
  email: string;

  /** The saved card (`AUTH_…`, our own code; the provider's stays with payments). */
  @Column('text', { name: 'authorization_code' })
  authorizationCode: string;

  /** Fixed when subscribing, so the plan's later edits never change what a subscriber pays. */
  @Column({ type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer })
  amount: Amount;

  @Column('text')
  currency: Currency;

  @Column('text')
  interval: PlanInterval;

  @Column('text')
  status: SubscriptionStatus;

  @Column('timestamptz', { name: 'trial_end_at', nullable: true })
  trialEndAt: Date | null;

  /** Period 1 starts here; period n, n − 1 intervals later (billing-calendar.ts). */
  @Column('timestamptz', { name: 'billing_anchor_at' })
  billingAnchorAt: Date;

  @Column('timestamptz', { name: 'current_period_start' })
  currentPeriodStart: Date;

  @Column('timestamptz', { name: 'current_period_end' })
  currentPeriodEnd: Date;

  /** The period the next charge pays for. */
  @Column('integer', { name: 'due_period' })
  duePeriod: number;

  /** When the billing scan charges next (the period's date, or a retry's); null while paused or cancelled. */
  @Column('timestamptz', { name: 'next_billing_at', nullable: true })
  nextBillingAt: Date | null;

  /** Failed charges of `duePeriod` so far; the next attempt is number failedAttempts + 1. */
  @Column('integer', { name: 'failed_attempts' })
  failedAttempts: number;

  /** When `duePeriod`'s first charge failed: retries are counted from it. */
  @Column('timestamptz', { name: 'past_due_since', nullable: true })
  pastDueSince: Date | null;

  /** Set by the billing scan that is charging it (real time); cleared when the outcome is recorded. */
  @Column('timestamptz', { name: 'claimed_at', nullable: true })
  claimedAt: Date | null;

  @Column('text', { name: 'latest_payment_reference', nullable: true })
  latestPaymentReference: string | null;

  @Column('text', { name: 'latest_charge_status', nullable: true })
  latestChargeStatus: SubscriptionChargeStatus | null;

  @Column('timestamptz', { name: 'paused_at', nullable: true })
  pausedAt: Date | null;

  @Column('timestamptz', { name: 'cancelled_at', nullable: true })
  cancelledAt: Date | null;

  @Column('text', { name: 'cancellation_reason', nullable: true })
  cancellationReason: SubscriptionCancellationReason | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}

/** One charge attempt of one period: the payment made for it, and how it ended. */
@Entity({ name: 'subscription_charges' })
export class SubscriptionChargeEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  @Column('uuid', { name: 'subscription_id' })
  subscriptionId: string;

  @Column('integer')
  period: number;

  @Column('integer')
  attempt: number;

  @Column('uuid', { name: 'payment_id' })
  paymentId: string;

  @Column('text', { name: 'payment_reference' })
  paymentReference: string;

  @Column('text')
  status: SubscriptionChargeStatus;

  /** The tenant's time when the attempt was made (test clocks): retries are scheduled from it. */
  @Column('timestamptz', { name: 'attempted_at' })
  attemptedAt: Date;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
