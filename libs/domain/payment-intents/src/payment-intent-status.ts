import type { PaymentIntentStatus } from '@gateway/contracts';
import type { StatusMoves } from '@gateway/platform';

/**
 * An intent row's status: the wire's five, plus two claims that never reach the wire as such.
 * - `holding`: saved with its reference, the hold not yet confirmed by the provider (the create
 *   is in flight, or timed out and awaits a retry with the same Idempotency-Key). Invisible: the
 *   merchant has not been given its reference.
 * - `capturing`: a capture was claimed and is being asked of the provider. Shown as
 *   `requires_capture` (no money has moved as far as the gateway knows) until the capture's
 *   payment is credited, which makes it `succeeded` in that same transaction (a database trigger,
 *   see migration AddPaymentIntentClaims).
 */
export type PaymentIntentRowStatus = PaymentIntentStatus | 'holding' | 'capturing';

/** Every status move by name: the statuses it may start from and the one it ends in (see StatusMoves). */
export const INTENT_TRANSITIONS = {
  placeHold: { from: ['holding'], to: 'requires_capture' },
  /** No saved card: the provider's authorize-only checkout is open, awaiting the customer. */
  openCheckout: { from: ['holding'], to: 'requires_action' },
  abandonHold: { from: ['holding'], to: 'canceled' },
  /** The customer authorized the hold on the checkout: its 7 days run from now. */
  authorize: { from: ['requires_action'], to: 'requires_capture' },
  claimCapture: { from: ['requires_capture'], to: 'capturing' },
  refuseCapture: { from: ['capturing'], to: 'requires_capture' },
  /** Made by the database trigger, in the transaction that credits the capture's payment. */
  succeed: { from: ['capturing'], to: 'succeeded' },
  cancel: { from: ['requires_capture', 'requires_action'], to: 'canceled' },
  /** A hold past its 7 days, or an authorization link past its 24 hours that the customer never used. */
  expire: { from: ['requires_capture', 'requires_action'], to: 'expired' },
} as const satisfies StatusMoves<PaymentIntentRowStatus>;

export type IntentTransition = keyof typeof INTENT_TRANSITIONS;

/** What the wire shows for a row's status. */
export function wireIntentStatus(status: PaymentIntentRowStatus): PaymentIntentStatus {
  if (status === 'holding' || status === 'capturing') return 'requires_capture';
  return status;
}
