import type { SimulatorContext } from '../context';
import { badRequest, fullyReversed, notFound } from '../errors';
import type { MinorUnits } from '../money';
import { refundEventToWire } from '../serializers';
import type { Account } from '../state/accounts';
import type { RefundRecord } from '../state/refunds';
import type { TransactionRecord } from '../state/transactions';
import { cancelScheduledCompletion, scheduleCompletion } from './completions';

export interface RefundInput {
  /** Transaction reference, or its numeric id (Paystack accepts either). */
  transaction: string;
  amount: MinorUnits | undefined;
  merchantNote: string | undefined;
}

export type RefundOutcome = 'processed' | 'failed';

/**
 * Opens a refund. Pending and processed refunds together may never exceed
 * the transaction amount; without an amount the whole remainder is refunded.
 */
export function createRefund(ctx: SimulatorContext, account: Account, input: RefundInput): RefundRecord {
  const transaction = findRefundableTransaction(account, input.transaction);
  const remaining = transaction.amount - account.refunds.committedAmountFor(transaction.reference);
  // Paystack's wording (api-errors.json); the code says it, so a client never reads the message.
  if (remaining <= 0) throw fullyReversed();
  const amount = input.amount ?? remaining;
  if (amount > remaining) {
    throw badRequest(`Refund amount cannot exceed the refundable balance of ${remaining} (minor units)`);
  }

  const now = ctx.now();
  const refund = account.refunds.add({
    id: ctx.ids.numericId(),
    transactionReference: transaction.reference,
    transactionId: transaction.id,
    amount,
    currency: transaction.currency,
    status: 'pending',
    merchantNote: input.merchantNote ?? null,
    createdAt: now,
    updatedAt: now,
  });
  scheduleCompletion(ctx, account, completionKey(refund), () => completeRefund(ctx, account, refund, 'processed'));
  return refund;
}

export function findRefund(account: Account, id: number): RefundRecord {
  const refund = account.refunds.find(id);
  if (!refund) throw notFound('Refund not found');
  return refund;
}

/** Settles a pending refund and sends refund.processed / refund.failed. */
export function completeRefund(
  ctx: SimulatorContext,
  account: Account,
  refund: RefundRecord,
  outcome: RefundOutcome,
): RefundRecord {
  if (refund.status !== 'pending') throw badRequest(`Refund is already ${refund.status}`);
  cancelScheduledCompletion(account, completionKey(refund));
  refund.status = outcome;
  refund.updatedAt = ctx.now();
  const transaction = account.transactions.findByReference(refund.transactionReference);
  const customer = transaction ? account.customers.findByCode(transaction.customerCode) : undefined;
  ctx.callbacks.send(
    account.secretKey,
    outcome === 'processed' ? 'refund.processed' : 'refund.failed',
    refundEventToWire(account, refund, customer),
  );
  return refund;
}

/** List Refunds of one transaction (reference or id), oldest first, in pages of `perPage`. */
export function listRefunds(account: Account, transaction: string, page: number, perPage: number): { refunds: RefundRecord[]; total: number } {
  const found =
    account.transactions.findByReference(transaction) ??
    (/^\d+$/.test(transaction) ? account.transactions.findById(Number(transaction)) : undefined);
  const all = found ? account.refunds.ofTransaction(found.reference) : [];
  return { refunds: all.slice((page - 1) * perPage, page * perPage), total: all.length };
}

function findRefundableTransaction(account: Account, identifier: string): TransactionRecord {
  const transaction =
    account.transactions.findByReference(identifier) ??
    (/^\d+$/.test(identifier) ? account.transactions.findById(Number(identifier)) : undefined);
  if (!transaction) throw notFound('Transaction reference not found');
  if (transaction.status !== 'success') throw badRequest('Only successful transactions can be refunded');
  return transaction;
}

function completionKey(refund: RefundRecord): string {
  return `refund:${refund.id}`;
}
