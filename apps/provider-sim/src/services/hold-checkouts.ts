import type { SimulatorContext } from '../context';
import { duplicateReference } from '../errors';
import type { Currency, MinorUnits } from '../money';
import { holdToWire } from '../serializers';
import type { Account } from '../state/accounts';
import type { HoldRecord } from '../state/holds';
import { GATEWAY_RESPONSE, type TestCard } from '../test-cards';
import { findOrCreateCustomer } from './customers';
import { assertReferenceUnused, DUPLICATE_REFERENCE, issueCardAuthorization } from './payments';

export interface HoldCheckoutInput {
  email: string;
  amount: MinorUnits;
  currency: Currency;
  reference: string;
}

/** What the page says while the customer has not authorized (the hold's `gateway_response`). */
export const AWAITING_CUSTOMER = 'Awaiting customer authorization';

/**
 * Simulator extension: an authorize-only hosted checkout (`POST /preauthorization/initialize`),
 * for a customer with no saved card. Paystack has no such path, so a gateway pointed at the real
 * provider gets a 404 — never a charge. The hold is `pending` until the customer authorizes it
 * on the page; then it is `authorized` like one reserved on a saved card (capturable and
 * releasable through /preauthorization/*), and the card is saved as an authorization. The same
 * initialize sent again (same amount, currency and email) answers the checkout already opened.
 */
export function initializeHoldCheckout(ctx: SimulatorContext, account: Account, input: HoldCheckoutInput): HoldRecord {
  const existing = account.holds.find(input.reference);
  if (existing) {
    const same = existing.accessCode && existing.amount === input.amount && existing.currency === input.currency && existing.email === input.email;
    if (same) return existing;
    throw duplicateReference(DUPLICATE_REFERENCE);
  }
  assertReferenceUnused(account, input.reference);
  const customer = findOrCreateCustomer(ctx, account, input.email);
  const accessCode = ctx.ids.accessCode();
  const hold = account.holds.add({
    id: ctx.ids.numericId(),
    reference: input.reference,
    authorizationCode: null,
    email: customer.email,
    amount: input.amount,
    currency: input.currency,
    status: 'pending',
    gatewayResponse: AWAITING_CUSTOMER,
    capturedAmount: null,
    fees: null,
    createdAt: ctx.now(),
    capturedAt: null,
    releasedAt: null,
    accessCode,
    authorizedAt: null,
  });
  ctx.accounts.registerAccessCode(accessCode, account, hold.reference);
  return hold;
}

/**
 * The customer authorizes the hold with a test card (its `checkoutOutcome`). Approved: the card
 * is saved, the hold is `authorized`, and `preauthorization.authorized` is sent. Refused: the
 * hold stays `pending` with the issuer's answer, and the customer may try another card. A hold
 * no longer pending (authorized, captured, released) is left as it is.
 */
export function authorizeHoldWithCard(ctx: SimulatorContext, account: Account, hold: HoldRecord, card: TestCard): HoldRecord {
  if (hold.status !== 'pending') return hold;
  const outcome = card.checkoutOutcome;
  if (outcome !== 'success') {
    hold.gatewayResponse = GATEWAY_RESPONSE[outcome];
    return hold;
  }
  const customerCode = findOrCreateCustomer(ctx, account, hold.email).customerCode;
  const authorization = issueCardAuthorization(ctx, account, { email: hold.email, customerCode }, card);
  hold.authorizationCode = authorization.authorizationCode;
  hold.status = 'authorized';
  hold.gatewayResponse = GATEWAY_RESPONSE.success;
  hold.authorizedAt = ctx.now();
  ctx.callbacks.send(account.secretKey, 'preauthorization.authorized', holdToWire(account, hold));
  return hold;
}
