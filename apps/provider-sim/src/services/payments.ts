import { createHmac } from 'node:crypto';
import type { SimulatorContext } from '../context';
import { badRequest, duplicateReference, notFound } from '../errors';
import { calculateFee } from '../fees';
import type { Metadata } from '../http/validation';
import type { Currency, MinorUnits } from '../money';
import { transactionToWire } from '../serializers';
import type { Account } from '../state/accounts';
import type { AuthorizationRecord } from '../state/authorizations';
import type { TransactionOrigin, TransactionRecord } from '../state/transactions';
import { GATEWAY_RESPONSE, type ChargeOutcome, type TestCard } from '../test-cards';
import { findOrCreateCustomer } from './customers';

export interface InitializeInput {
  email: string;
  amount: MinorUnits;
  currency: Currency;
  reference: string | undefined;
  callbackUrl: string | undefined;
  metadata: Metadata | null;
}

export const DUPLICATE_REFERENCE = 'Duplicate Transaction Reference';

/**
 * Paystack refuses a reused reference outright. The simulator accommodates one
 * case: the gateway re-sending the *same* initialize (same amount, currency
 * and email) after a timeout gets the original transaction back, so a retry
 * can never open a second checkout for the same money.
 */
export function initializeTransaction(ctx: SimulatorContext, account: Account, input: InitializeInput): TransactionRecord {
  const reference = input.reference ?? ctx.ids.reference();
  const existing = account.transactions.findByReference(reference);
  if (existing) {
    const samePayment =
      existing.origin === 'checkout' &&
      existing.amount === input.amount &&
      existing.currency === input.currency &&
      existing.email === input.email;
    if (samePayment) return existing;
    throw duplicateReference(DUPLICATE_REFERENCE);
  }
  assertReferenceUnused(account, reference);

  const customer = findOrCreateCustomer(ctx, account, input.email);
  const accessCode = ctx.ids.accessCode();
  const transaction = account.transactions.add(
    newTransaction(ctx, reference, 'checkout', {
      amount: input.amount,
      currency: input.currency,
      email: customer.email,
      customerCode: customer.customerCode,
      metadata: input.metadata,
      callbackUrl: input.callbackUrl ?? null,
      accessCode,
    }),
  );
  ctx.accounts.registerAccessCode(accessCode, account, reference);
  return transaction;
}

export function authorizationUrl(ctx: SimulatorContext, transaction: Pick<TransactionRecord, 'accessCode'>): string {
  return `${ctx.publicUrl()}/checkout/${transaction.accessCode}`;
}

export function findTransaction(account: Account, reference: string): TransactionRecord {
  const transaction = account.transactions.findByReference(reference);
  if (!transaction) throw notFound('Transaction reference not found');
  return transaction;
}

/**
 * The customer pays a checkout transaction with a test card (hosted page or
 * /sim control). A paid transaction is final: paying again changes nothing
 * and charges nothing. A failed attempt may be retried with another card.
 */
export function payWithCard(
  ctx: SimulatorContext,
  account: Account,
  transaction: TransactionRecord,
  card: TestCard,
): TransactionRecord {
  if (transaction.origin !== 'checkout') throw badRequest('Only hosted-checkout transactions can be paid by a customer');
  if (transaction.status === 'success') return transaction;

  const outcome = card.checkoutOutcome;
  if (outcome !== 'success') {
    markFailed(transaction, outcome);
    return transaction;
  }
  const authorization = issueCardAuthorization(ctx, account, transaction, card);
  markPaid(ctx, account, transaction, authorization.authorizationCode);
  return transaction;
}

export interface ChargeAuthorizationInput {
  authorizationCode: string;
  email: string;
  amount: MinorUnits;
  currency: Currency;
  reference: string | undefined;
  metadata: Metadata | null;
}

/**
 * A merchant-initiated charge on a saved card. The issuer's answer comes from
 * the test card behind the authorization (`recurringOutcome`). Like Paystack,
 * a reference already used is refused outright — also the same charge sent
 * again after a timeout: `400 Duplicate Transaction Reference`, nothing
 * charged. A client learns the first charge's outcome with /transaction/verify.
 */
export function chargeAuthorization(
  ctx: SimulatorContext,
  account: Account,
  input: ChargeAuthorizationInput,
): TransactionRecord {
  const authorization = findChargeableAuthorization(account, input.authorizationCode, input.email);
  const reference = input.reference ?? ctx.ids.reference();
  assertReferenceUnused(account, reference);

  const transaction = account.transactions.add(
    newTransaction(ctx, reference, 'charge_authorization', {
      amount: input.amount,
      currency: input.currency,
      email: authorization.email,
      customerCode: authorization.customerCode,
      metadata: input.metadata,
      authorizationCode: authorization.authorizationCode,
    }),
  );
  const outcome: ChargeOutcome = authorization.card?.recurringOutcome ?? 'declined';
  if (outcome === 'success') markPaid(ctx, account, transaction, authorization.authorizationCode);
  else markFailed(transaction, outcome);
  return transaction;
}

/**
 * The authorization must exist in this account, belong to this customer and
 * be reusable. A foreign authorization is indistinguishable from an unknown one.
 */
export function findChargeableAuthorization(account: Account, authorizationCode: string, email: string): AuthorizationRecord {
  const authorization = account.authorizations.find(authorizationCode);
  if (!authorization || authorization.email !== email) throw badRequest('Invalid authorization code');
  if (!authorization.reusable) throw badRequest('This authorization is not reusable');
  return authorization;
}

/** A reference names one object per account, whatever kind it is (transaction or hold). */
export function assertReferenceUnused(account: Account, reference: string): void {
  if (account.transactions.findByReference(reference) || account.holds.find(reference)) {
    throw duplicateReference(DUPLICATE_REFERENCE);
  }
}

/** Success: fee, payment time, and the `charge.success` callback signed with this account's key. */
export function markPaid(
  ctx: SimulatorContext,
  account: Account,
  transaction: TransactionRecord,
  authorizationCode: string | null,
): void {
  transaction.status = 'success';
  transaction.gatewayResponse = GATEWAY_RESPONSE.success;
  transaction.fees = calculateFee(transaction.amount, transaction.currency, ctx.fees);
  transaction.feesBorneByCustomer = ctx.knobs.current.customerBearsFees;
  transaction.paidAt = ctx.now();
  transaction.authorizationCode = authorizationCode;
  ctx.callbacks.send(account.secretKey, 'charge.success', transactionToWire(account, transaction));
}

function markFailed(transaction: TransactionRecord, outcome: Exclude<ChargeOutcome, 'success'>): void {
  transaction.status = 'failed';
  transaction.gatewayResponse = GATEWAY_RESPONSE[outcome];
  transaction.fees = null;
  transaction.paidAt = null;
}

/** What each kind of transaction sets: the money and the customer, and any default it changes. */
type TransactionFields = Pick<TransactionRecord, 'amount' | 'currency' | 'email' | 'customerCode'> & Partial<Omit<TransactionRecord, 'id' | 'reference' | 'origin' | 'createdAt'>>;

/**
 * A new transaction: the defaults every one starts from, then `fields`. The defaults come first and
 * `fields` is spread after them, not the other way round: on Node 20's V8 an object literal that adds
 * keys after a leading spread gets a map of its own every time (docs/benchmarks.md, "Keys added
 * after a spread").
 */
export function newTransaction(ctx: SimulatorContext, reference: string, origin: TransactionOrigin, fields: TransactionFields): TransactionRecord {
  return {
    id: ctx.ids.numericId(),
    reference,
    origin,
    status: 'abandoned',
    gatewayResponse: null,
    channel: 'card',
    fees: null,
    paidAt: null,
    createdAt: ctx.now(),
    metadata: null,
    callbackUrl: null,
    accessCode: null,
    authorizationCode: null,
    dedicatedAccountNumber: null,
    ...fields,
  };
}

/** Saves the card the customer paid (or authorized a hold) with, for the customer of `owner`. */
export function issueCardAuthorization(
  ctx: SimulatorContext,
  account: Account,
  owner: Pick<TransactionRecord, 'email' | 'customerCode'>,
  card: TestCard,
): AuthorizationRecord {
  return account.authorizations.add({
    authorizationCode: ctx.ids.code('AUTH', 10),
    email: owner.email,
    customerCode: owner.customerCode,
    channel: 'card',
    bin: card.number.slice(0, 6),
    last4: card.number.slice(-4),
    expMonth: card.expMonth,
    expYear: card.expYear,
    cardType: card.brand,
    brand: card.brand,
    bank: 'TEST BANK',
    reusable: card.reusable,
    signature: cardSignature(account, card),
    card,
    bankTransfer: null,
  });
}

/** Same card + same account → same signature, like Paystack's card fingerprint. */
function cardSignature(account: Account, card: TestCard): string {
  return `SIG_${createHmac('sha256', account.secretKey).update(card.number).digest('hex').slice(0, 20)}`;
}
