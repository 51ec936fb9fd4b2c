import type { SimulatorContext } from '../context';
import { badRequest, notFound } from '../errors';
import type { Currency, MinorUnits } from '../money';
import type { Account } from '../state/accounts';
import type { HoldRecord } from '../state/holds';
import { GATEWAY_RESPONSE } from '../test-cards';
import { assertReferenceUnused, findChargeableAuthorization, markPaid, newTransactionFields } from './payments';

export interface ReserveInput {
  authorizationCode: string;
  email: string;
  amount: MinorUnits;
  currency: Currency;
  reference: string;
}

/**
 * Places a hold on a reusable card. The issuer's answer comes from the test
 * card (`recurringOutcome`): a refusal is recorded as a "failed" hold rather
 * than an HTTP error, mirroring how charge_authorization reports declines.
 * The same reference with the same payload returns the original hold.
 */
export function reserveAuthorization(ctx: SimulatorContext, account: Account, input: ReserveInput): HoldRecord {
  const authorization = findChargeableAuthorization(account, input.authorizationCode, input.email);
  const existing = account.holds.find(input.reference);
  if (existing) {
    const sameHold =
      existing.authorizationCode === authorization.authorizationCode &&
      existing.amount === input.amount &&
      existing.currency === input.currency;
    if (sameHold) return existing;
    throw badRequest('Duplicate Transaction Reference');
  }
  assertReferenceUnused(account, input.reference);

  const outcome = authorization.card?.recurringOutcome ?? 'declined';
  const now = ctx.now();
  return account.holds.add({
    reference: input.reference,
    authorizationCode: authorization.authorizationCode,
    email: authorization.email,
    amount: input.amount,
    currency: input.currency,
    status: outcome === 'success' ? 'reserved' : 'failed',
    gatewayResponse: GATEWAY_RESPONSE[outcome],
    capturedAmount: null,
    fees: null,
    createdAt: now,
    updatedAt: now,
  });
}

/**
 * Captures all or part of a hold. Capturing turns the hold into a successful
 * transaction under the same reference (verifiable and refundable like any
 * other) and sends `charge.success`. Repeating the same capture is a no-op.
 */
export function captureAuthorization(
  ctx: SimulatorContext,
  account: Account,
  reference: string,
  requestedAmount: MinorUnits | undefined,
): HoldRecord {
  const hold = findHold(account, reference);
  switch (hold.status) {
    case 'failed':
      throw badRequest('The reservation failed; there is nothing to capture');
    case 'released':
      throw badRequest('The reservation has been released and cannot be captured');
    case 'captured':
      if (requestedAmount === undefined || requestedAmount === hold.capturedAmount) return hold;
      throw badRequest('The reservation has already been captured');
    case 'reserved':
      break;
  }
  const amount = requestedAmount ?? hold.amount;
  if (amount > hold.amount) throw badRequest('Capture amount cannot exceed the reserved amount');

  const authorization = account.authorizations.find(hold.authorizationCode);
  if (!authorization) throw badRequest('Invalid authorization code');
  const transaction = account.transactions.add({
    ...newTransactionFields(ctx, hold.reference, 'preauthorization'),
    amount,
    currency: hold.currency,
    email: authorization.email,
    customerCode: authorization.customerCode,
  });
  markPaid(ctx, account, transaction, authorization.authorizationCode);

  hold.status = 'captured';
  hold.capturedAmount = amount;
  hold.fees = transaction.fees;
  hold.gatewayResponse = GATEWAY_RESPONSE.success;
  hold.updatedAt = ctx.now();
  return hold;
}

/** Releases a hold so the customer's funds are free again. Releasing twice is a no-op. */
export function releaseAuthorization(ctx: SimulatorContext, account: Account, reference: string): HoldRecord {
  const hold = findHold(account, reference);
  switch (hold.status) {
    case 'failed':
      throw badRequest('The reservation failed; there is nothing to release');
    case 'captured':
      throw badRequest('The reservation has already been captured');
    case 'released':
      return hold;
    case 'reserved':
      hold.status = 'released';
      hold.updatedAt = ctx.now();
      return hold;
  }
}

function findHold(account: Account, reference: string): HoldRecord {
  const hold = account.holds.find(reference);
  if (!hold) throw notFound('Reservation not found');
  return hold;
}
