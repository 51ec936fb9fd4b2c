import type { PaymentStatus } from '@gateway/contracts';

/**
 * Every status move a payment can make, by name, with the statuses it may start from.
 * A late success is still taken: a payment the customer completes after it was marked failed
 * (they retried on the checkout page) or abandoned has moved money, so it must be credited.
 */
export const PAYMENT_TRANSITIONS = {
  succeed: ['pending', 'failed', 'abandoned', 'scheduled'],
  fail: ['pending', 'scheduled'],
  abandon: ['pending'],
  cancelSchedule: ['scheduled'],
} as const satisfies Record<string, readonly PaymentStatus[]>;

export type PaymentTransition = keyof typeof PAYMENT_TRANSITIONS;

