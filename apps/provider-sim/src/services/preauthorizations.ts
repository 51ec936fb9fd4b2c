import type { SimulatorContext } from '../context';
import { badRequest, duplicateReference, notFound, processorRefusal, unknownReference } from '../errors';
import type { Currency, MinorUnits } from '../money';
import type { Account } from '../state/accounts';
import type { HoldRecord } from '../state/holds';
import type { TransactionRecord } from '../state/transactions';
import { GATEWAY_RESPONSE } from '../test-cards';
import { assertReferenceUnused, DUPLICATE_REFERENCE, findChargeableAuthorization, markPaid, newTransaction } from './payments';

export interface ReserveInput {
  authorizationCode: string;
  email: string;
  amount: MinorUnits;
  currency: Currency;
  reference: string;
}

/** Paystack's answer to a reservation the issuer refuses (API reference, Reserve Preauthorization, 400). */
export const RESERVATION_REFUSED = 'Preauthorization unsuccessful';
/** Paystack's answer to a capture or release of a reference with no preauthorization (API reference, 400). */
export const NO_PREAUTHORIZATION = 'No preauthorized transaction exists for the reference provided';

/**
 * Places a hold on a reusable card. The issuer's answer comes from the test card
 * (`recurringOutcome`); a refusal is Paystack's `400 Preauthorization unsuccessful` (type
 * `processor_error`), and the refused reservation stays on record as `failed`, so verify
 * answers for it. A reused reference is refused (`duplicate_reference`) unless the
 * `duplicate_references` knob says `replay` and the request is the same.
 */
export function reserveAuthorization(ctx: SimulatorContext, account: Account, input: ReserveInput): HoldRecord {
  const authorization = findChargeableAuthorization(account, input.authorizationCode, input.email);
  const existing = account.holds.find(input.reference);
  if (existing) {
    const sameHold =
      existing.authorizationCode === authorization.authorizationCode && existing.amount === input.amount && existing.currency === input.currency;
    if (sameHold && ctx.knobs.current.duplicateReferences === 'replay' && existing.status !== 'failed') return existing;
    throw duplicateReference(DUPLICATE_REFERENCE);
  }
  assertReferenceUnused(account, input.reference);

  const outcome = authorization.card?.recurringOutcome ?? 'declined';
  const hold = account.holds.add({
    id: ctx.ids.numericId(),
    reference: input.reference,
    authorizationCode: authorization.authorizationCode,
    email: authorization.email,
    amount: input.amount,
    currency: input.currency,
    status: outcome === 'success' ? 'authorized' : 'failed',
    gatewayResponse: GATEWAY_RESPONSE[outcome],
    capturedAmount: null,
    fees: null,
    createdAt: ctx.now(),
    capturedAt: null,
    releasedAt: null,
  });
  if (hold.status === 'failed') throw processorRefusal(RESERVATION_REFUSED);
  return hold;
}

/**
 * Captures all or part of a hold. Capturing turns the hold into a successful transaction under
 * the same reference (verifiable and refundable like any other, and announced by
 * `charge.success`); the answer is that transaction, as Paystack's Capture Preauthorization
 * answers. Repeating the same capture answers the same transaction (a simulator accommodation).
 */
export function captureAuthorization(
  ctx: SimulatorContext,
  account: Account,
  reference: string,
  requestedAmount: MinorUnits | undefined,
): TransactionRecord {
  const hold = findHold(account, reference);
  switch (hold.status) {
    case 'pending':
      throw badRequest('The customer has not authorized this preauthorization yet; there is nothing to capture');
    case 'failed':
      throw badRequest('The preauthorization failed; there is nothing to capture');
    case 'released':
      throw badRequest('The preauthorization has been released and cannot be captured');
    case 'captured':
      if (requestedAmount === undefined || requestedAmount === hold.capturedAmount) return captureOf(account, hold);
      throw badRequest('The preauthorization has already been captured');
    case 'authorized':
      break;
  }
  const amount = requestedAmount ?? hold.amount;
  if (amount > hold.amount) throw badRequest('Capture amount cannot be more than authorized amount');

  const authorization = hold.authorizationCode === null ? undefined : account.authorizations.find(hold.authorizationCode);
  if (!authorization) throw badRequest('Invalid authorization code');
  const transaction = account.transactions.add(
    newTransaction(ctx, hold.reference, 'preauthorization', {
      channel: 'preauth',
      amount,
      currency: hold.currency,
      email: authorization.email,
      customerCode: authorization.customerCode,
    }),
  );
  markPaid(ctx, account, transaction, authorization.authorizationCode);

  hold.status = 'captured';
  hold.capturedAmount = amount;
  hold.fees = transaction.fees;
  hold.gatewayResponse = GATEWAY_RESPONSE.success;
  hold.capturedAt = ctx.now();
  return transaction;
}

/**
 * Releases a hold so the customer's funds are free again. Releasing twice answers the same.
 * Releasing an authorize-only checkout the customer has not used closes it: it can no longer be authorized.
 */
export function releaseAuthorization(ctx: SimulatorContext, account: Account, reference: string): HoldRecord {
  const hold = findHold(account, reference);
  switch (hold.status) {
    case 'failed':
      throw badRequest('The preauthorization failed; there is nothing to release');
    case 'captured':
      throw badRequest('The preauthorization has already been captured');
    case 'released':
      return hold;
    case 'pending':
    case 'authorized':
      hold.status = 'released';
      hold.releasedAt = ctx.now();
      return hold;
  }
}

/** GET /preauthorization/:reference — Paystack answers an unknown reference with 400 `not_found`. */
export function verifyAuthorization(account: Account, reference: string): HoldRecord {
  const hold = account.holds.find(reference);
  if (!hold) throw unknownReference('Preauthorization not found');
  return hold;
}

function findHold(account: Account, reference: string): HoldRecord {
  const hold = account.holds.find(reference);
  if (!hold) throw unknownReference(NO_PREAUTHORIZATION);
  return hold;
}

function captureOf(account: Account, hold: HoldRecord): TransactionRecord {
  const transaction = account.transactions.findByReference(hold.reference);
  if (!transaction) throw notFound('Transaction reference not found');
  return transaction;
}
