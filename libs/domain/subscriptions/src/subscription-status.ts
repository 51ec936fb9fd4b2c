import type { SubscriptionStatus } from '@gateway/contracts';
import type { StatusMoves } from '@gateway/platform';

/** The statuses in which a subscription is billed (the billing scan's and the charge outcomes' starting points). */
export const BILLABLE_STATUSES = ['trialing', 'active', 'past_due'] as const satisfies readonly SubscriptionStatus[];

/**
 * Every status move of a subscription, by name (see StatusMoves; docs/subscriptions.md#statuses).
 * Each is made on the row locked FOR UPDATE, in the transaction that also writes its event (and,
 * for the charge outcomes, the payment's own status and ledger entries).
 */
export const SUBSCRIPTION_TRANSITIONS = {
  /** A period's charge succeeded (the first one ends the trial; one after failures ends past_due). */
  charge: { from: BILLABLE_STATUSES, to: 'active' },
  /** A period's charge failed and a retry is scheduled. */
  failCharge: { from: BILLABLE_STATUSES, to: 'past_due' },
  /** The last retry failed too: `subscription.cancelled` with reason `payment_failed`. */
  exhaustRetries: { from: BILLABLE_STATUSES, to: 'cancelled' },
  /** Billing stops until resumed. */
  pause: { from: BILLABLE_STATUSES, to: 'paused' },
  /** Billing restarts, from the next billing date still ahead. */
  resume: { from: ['paused'], to: 'active' },
  /** Resumed while the trial still runs: the trial goes on. */
  resumeTrial: { from: ['paused'], to: 'trialing' },
  /** The merchant ends it; final. */
  cancel: { from: ['trialing', 'active', 'past_due', 'paused'], to: 'cancelled' },
} as const satisfies StatusMoves<SubscriptionStatus>;

export type SubscriptionTransition = keyof typeof SUBSCRIPTION_TRANSITIONS;
