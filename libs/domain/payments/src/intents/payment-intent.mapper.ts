import type { PaymentIntentResponse } from '@gateway/contracts';
import type { PaymentIntentEntity } from './payment-intent.entity';

/** The only bridge from an intent row to the wire. */
export function toPaymentIntentResponse(i: PaymentIntentEntity): PaymentIntentResponse {
  return {
    intent_reference: i.reference,
    status: i.status,
    amount: i.amount.toNumber(),
    captured_amount: i.capturedAmount?.toNumber() ?? null,
    currency: i.currency,
    email: i.email,
    capture_method: i.captureMethod,
    metadata: i.metadata,
    payment_reference: i.paymentId ? i.reference : null,
    expires_at: i.expiresAt.toISOString(),
    created_at: i.createdAt.toISOString(),
  };
}
