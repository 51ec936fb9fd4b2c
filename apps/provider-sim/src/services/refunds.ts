import type { SimulatorContext } from '../context';
import { badRequest, notFound } from '../errors';
import type { MinorUnits } from '../money';
import { refundToWire } from '../serializers';
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
  if (remaining <= 0) throw badRequest('Transaction has been fully refunded');
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
  ctx.callbacks.send(
    account.secretKey,
    outcome === 'processed' ? 'refund.processed' : 'refund.failed',
    refundToWire(account, refund),
  );
  return refund;
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
