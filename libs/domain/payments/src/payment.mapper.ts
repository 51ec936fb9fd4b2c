import type { PaymentAuthorizationResponse, PaymentResponse } from '@gateway/contracts';
import type { PaymentAuthorizationEntity } from './payment-authorization.entity';
import type { PaymentEntity } from './payment.entity';
import { checkoutIsOpen } from './payment-status';

/** A payment with what it renders with: its saved card, when it has one. */
export interface PaymentView {
  payment: PaymentEntity;
  authorization: PaymentAuthorizationEntity | null;
}

/** Where customers pay: a gateway URL that redirects to the provider's page (no provider id in it). */
export function checkoutUrl(publicBaseUrl: string, reference: string): string {
  return `${publicBaseUrl}/checkout/${encodeURIComponent(reference)}`;
}

/** The only bridge from a payment row to the wire (API responses and webhook payloads). */
export function toPaymentResponse(view: PaymentView, publicBaseUrl: string): PaymentResponse {
  const p = view.payment;
  return {
    reference: p.reference,
    status: p.status,
    amount: p.amount.toNumber(),
    currency: p.currency,
    net_amount: p.netAmount?.toNumber() ?? null,
    fees: p.platformFee && p.providerFee ? { platform: p.platformFee.toNumber(), provider: p.providerFee.toNumber() } : null,
    amount_refunded: p.amountRefunded.toNumber(),
    email: p.email,
    customer_reference: p.customerReference,
    authorization_url: checkoutIsOpen(p) ? checkoutUrl(publicBaseUrl, p.reference) : null,
    callback_url: p.callbackUrl,
    metadata: p.metadata,
    splits: p.splits.map((s) => ({ subaccount: s.subaccount, share: Number(s.share), amount: s.amount === null ? null : Number(s.amount) })),
    authorization: view.authorization ? toAuthorizationResponse(view.authorization) : null,
    gateway_response: p.gatewayResponse,
    channel: p.channel,
    charge_at: p.chargeAt?.toISOString() ?? null,
    paid_at: p.paidAt?.toISOString() ?? null,
    created_at: p.createdAt.toISOString(),
  };
}

/**
 * toAuthorizationResponse in SQL, over a payment_authorizations row `a`: the success statement
 * (payment-success.statement.ts) renders the saved card of the `payment.success` event with it.
 * Keep the two in step (payment-confirmation.service.int-spec.ts compares the event with the response).
 */
export const AUTHORIZATION_RESPONSE_JSON = `jsonb_build_object('authorization_code', a.code, 'reusable', a.reusable, 'brand', a.brand, 'last4', a.last4,
  'exp_month', a.exp_month, 'exp_year', a.exp_year, 'bank', a.bank)`;

function toAuthorizationResponse(a: PaymentAuthorizationEntity): PaymentAuthorizationResponse {
  return { authorization_code: a.code, reusable: a.reusable, brand: a.brand, last4: a.last4, exp_month: a.expMonth, exp_year: a.expYear, bank: a.bank };
}
