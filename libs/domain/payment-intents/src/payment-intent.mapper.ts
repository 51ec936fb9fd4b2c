import type { PaymentIntentResponse } from '@gateway/contracts';
import type { PaymentIntentEntity } from './payment-intent.entity';
import { wireIntentStatus } from './payment-intent-status';

/** Where the customer authorizes a hold: a gateway URL that redirects to the provider's page (no provider id in it). */
export function holdCheckoutUrl(publicBaseUrl: string, reference: string): string {
  return `${publicBaseUrl}/checkout/holds/${encodeURIComponent(reference)}`;
}

/** The only bridge from an intent row to the wire. A capture shows only once it is credited. */
export function toPaymentIntentResponse(i: PaymentIntentEntity, publicBaseUrl: string): PaymentIntentResponse {
  return {
    intent_reference: i.reference,
    status: wireIntentStatus(i.status),
    amount: i.amount.toNumber(),
    captured_amount: i.status === 'succeeded' ? (i.capturedAmount?.toNumber() ?? null) : null,
    currency: i.currency,
    email: i.email,
    capture_method: i.captureMethod,
    metadata: i.metadata,
    authorization_url: i.status === 'requires_action' ? holdCheckoutUrl(publicBaseUrl, i.reference) : null,
    payment_reference: i.status === 'succeeded' && i.paymentId ? i.reference : null,
    expires_at: i.expiresAt.toISOString(),
    created_at: i.createdAt.toISOString(),
  };
}
