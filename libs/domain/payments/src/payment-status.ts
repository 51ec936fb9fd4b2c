import type { PaymentStatus } from '@gateway/contracts';
import type { StatusMoves } from '@gateway/platform';
import type { PaymentEntity } from './payment.entity';

/**
 * Every status move a payment can make, by name: the statuses it may start from and the one it
 * ends in (see StatusMoves). A late success is still taken: a payment the customer completes after
 * it was marked failed (they retried on the checkout page) or abandoned has moved money, so it
 * must be credited.
 */
export const PAYMENT_TRANSITIONS = {
  succeed: { from: ['pending', 'failed', 'abandoned', 'scheduled'], to: 'success' },
  fail: { from: ['pending', 'scheduled'], to: 'failed' },
  // A declined checkout payment too: its customer may still pay on the checkout until it is abandoned.
  abandon: { from: ['pending', 'failed'], to: 'abandoned' },
  /** Only before a scheduler claimed the charge (triggered_at still null). */
  cancelSchedule: { from: ['scheduled'], to: 'cancelled' },
} as const satisfies StatusMoves<PaymentStatus>;

export type PaymentTransition = keyof typeof PAYMENT_TRANSITIONS;

/**
 * Whether the customer can (still) pay on the hosted checkout: a declined card does not close it
 * (the customer may try another card with the same access code, as on Paystack's page); success
 * and abandonment do.
 */
export function checkoutIsOpen(payment: Pick<PaymentEntity, 'status' | 'providerAuthorizationUrl'>): boolean {
  return payment.providerAuthorizationUrl !== null && (payment.status === 'pending' || payment.status === 'failed');
}

