import type { PaymentIntentResponse } from '@gateway/contracts';
import type { PaymentIntentEntity } from './payment-intent.entity';
import { wireIntentStatus } from './payment-intent-status';

/** The only bridge from an intent row to the wire. A capture shows only once it is credited. */
export function toPaymentIntentResponse(i: PaymentIntentEntity): PaymentIntentResponse {
  return {
    intent_reference: i.reference,
    status: wireIntentStatus(i.status),
    amount: i.amount.toNumber(),
    captured_amount: i.status === 'succeeded' ? (i.capturedAmount?.toNumber() ?? null) : null,
    currency: i.currency,
    email: i.email,
    capture_method: i.captureMethod,
    metadata: i.metadata,
    payment_reference: i.status === 'succeeded' && i.paymentId ? i.reference : null,
    expires_at: i.expiresAt.toISOString(),
    created_at: i.createdAt.toISOString(),
  };
}
