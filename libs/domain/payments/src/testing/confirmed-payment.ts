import type { INestApplicationContext } from '@nestjs/common';
import type { ProviderAuthorization, ProviderTransaction } from '@gateway/provider';
import { Amount, type DeveloperContext } from '@gateway/platform';
import { randomInt } from 'node:crypto';
import { PaymentConfirmationService } from '../payment-confirmation.service';
import type { PaymentView } from '../payment.mapper';
import { PaymentsService } from '../payments.service';

/** What the provider reports for a payment it collected in full: no provider fee unless `extra` says otherwise. */
export function providerSuccess(payment: { reference: string; amount: Amount; currency: ProviderTransaction['currency'] }, extra: Partial<ProviderTransaction> = {}): ProviderTransaction {
  return {
    providerId: String(randomInt(1, 2 ** 31)),
    reference: payment.reference,
    status: 'success',
    amount: payment.amount,
    currency: payment.currency,
    fee: Amount.zero(),
    paidAt: null,
    gatewayResponse: 'Approved',
    authorization: null,
    customerCode: null,
    channel: 'card',
    ...extra,
  };
}

/**
 * For integration tests of the modules built on payments: a checkout payment the provider
 * collected, confirmed as verify would (the wallet is credited its amount less the configured
 * platform fee). `card`: the card the provider saved, which becomes the customer's `AUTH_…`.
 */
export async function confirmedPayment(
  app: INestApplicationContext,
  ctx: DeveloperContext,
  input: { amount: number; email: string },
  card?: ProviderAuthorization,
): Promise<PaymentView> {
  const payment = await app.get(PaymentsService, { strict: false }).createPayment(ctx, input, undefined, 'checkout');
  return app.get(PaymentConfirmationService, { strict: false }).apply(ctx, payment, providerSuccess(payment, { authorization: card ?? null }));
}
