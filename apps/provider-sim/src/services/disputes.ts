import type { SimulatorContext } from '../context';
import { badRequest, notFound } from '../errors';
import type { MinorUnits } from '../money';
import { disputeToWire } from '../serializers';
import type { Account } from '../state/accounts';
import type { DisputeEvidence, DisputeRecord, DisputeResolution } from '../state/disputes';
import { findTransaction } from './payments';

/** How long the merchant has to respond, like Paystack's due date. */
const RESPONSE_WINDOW_MS = 2 * 24 * 60 * 60 * 1_000;

/** A customer's bank opens a chargeback on a successful transaction (simulator control). */
export function openDispute(
  ctx: SimulatorContext,
  account: Account,
  transactionReference: string,
  amount: MinorUnits | undefined,
  reason: string | undefined,
): DisputeRecord {
  const transaction = findTransaction(account, transactionReference);
  if (transaction.status !== 'success') throw badRequest('Only successful transactions can be disputed');
  if (account.disputes.findUnresolvedFor(transaction.reference)) {
    throw badRequest('Transaction already has an unresolved dispute');
  }
  const refundAmount = amount ?? transaction.amount;
  if (refundAmount > transaction.amount) throw badRequest('Dispute amount cannot exceed the transaction amount');

  const now = ctx.now();
  const dispute = account.disputes.add({
    id: ctx.ids.numericId(),
    transactionReference: transaction.reference,
    refundAmount,
    currency: transaction.currency,
    status: 'awaiting-merchant-feedback',
    resolution: null,
    category: 'chargeback',
    reason: reason ?? null,
    evidence: null,
    dueAt: new Date(now.getTime() + RESPONSE_WINDOW_MS),
    resolvedAt: null,
    createdAt: now,
    updatedAt: now,
    history: [{ status: 'awaiting-merchant-feedback', by: 'customer', createdAt: now }],
  });
  ctx.callbacks.send(account.secretKey, 'charge.dispute.create', disputeToWire(account, dispute));
  return dispute;
}

export function findDispute(account: Account, id: number): DisputeRecord {
  const dispute = account.disputes.find(id);
  if (!dispute) throw notFound('Dispute not found');
  return dispute;
}

export type EvidenceInput = Omit<DisputeEvidence, 'id' | 'createdAt'>;

/**
 * The merchant contests the dispute. Following Paystack, the dispute then
 * waits on the bank ("awaiting-bank-feedback"). Evidence may be replaced
 * until the dispute is resolved.
 */
export function addDisputeEvidence(
  ctx: SimulatorContext,
  account: Account,
  dispute: DisputeRecord,
  input: EvidenceInput,
): DisputeEvidence {
  if (dispute.status === 'resolved') throw badRequest('Dispute has already been resolved');
  const now = ctx.now();
  dispute.evidence = { ...input, id: ctx.ids.numericId(), createdAt: now };
  if (dispute.status !== 'awaiting-bank-feedback') {
    dispute.status = 'awaiting-bank-feedback';
    dispute.history.push({ status: 'awaiting-bank-feedback', by: 'merchant', createdAt: now });
  }
  dispute.updatedAt = now;
  return dispute.evidence;
}

/** The bank's final decision (simulator control); sends charge.dispute.resolve. */
export function resolveDispute(
  ctx: SimulatorContext,
  account: Account,
  dispute: DisputeRecord,
  resolution: DisputeResolution,
): DisputeRecord {
  if (dispute.status === 'resolved') throw badRequest('Dispute has already been resolved');
  const now = ctx.now();
  dispute.status = 'resolved';
  dispute.resolution = resolution;
  dispute.resolvedAt = now;
  dispute.updatedAt = now;
  dispute.history.push({ status: 'resolved', by: 'bank', createdAt: now });
  ctx.callbacks.send(account.secretKey, 'charge.dispute.resolve', disputeToWire(account, dispute));
  return dispute;
}
