import type { SimulatorContext } from '../context';
import { badRequest, notFound } from '../errors';
import { randomToken } from '../ids';
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
    uploads: new Map(),
    note: null,
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
 * `POST /dispute/:id/evidence`: records (or replaces) the merchant's evidence. Like on Paystack
 * this does not contest the dispute — its status does not move; `PUT /dispute/:id/resolve` does.
 */
export function addDisputeEvidence(ctx: SimulatorContext, account: Account, dispute: DisputeRecord, input: EvidenceInput): DisputeEvidence {
  assertOpen(dispute);
  const now = ctx.now();
  dispute.evidence = { ...input, id: ctx.ids.numericId(), createdAt: now };
  dispute.updatedAt = now;
  return dispute.evidence;
}

/** `GET /dispute/:id/upload_url`: a file name and where to PUT the file (no key needed, like a signed URL). */
export function issueUploadUrl(ctx: SimulatorContext, account: Account, dispute: DisputeRecord): { signedUrl: string; fileName: string } {
  assertOpen(dispute);
  const fileName = randomToken(20);
  dispute.uploads.set(fileName, { uploaded: false });
  ctx.uploads.set(fileName, { account, disputeId: dispute.id });
  return { signedUrl: `${ctx.publicUrl()}/uploads/${fileName}`, fileName };
}

/** The PUT to a signed upload URL. False when no upload URL names this file. */
export function receiveUpload(ctx: SimulatorContext, fileName: string): boolean {
  const target = ctx.uploads.get(fileName);
  const slot = target?.account.disputes.find(target.disputeId)?.uploads.get(fileName);
  if (!slot) return false;
  slot.uploaded = true;
  return true;
}

export interface MerchantResolution {
  resolution: DisputeResolution;
  message: string;
  refundAmount: MinorUnits;
  uploadedFilename: string;
  evidenceId: number | undefined;
}

/**
 * `PUT /dispute/:id/resolve`, the merchant's answer. `merchant-accepted` refunds `refund_amount`
 * and resolves the dispute (charge.dispute.resolve); `declined` contests it — it needs evidence
 * ("Evidence is required") — and the dispute then waits for the bank. Either way the file must
 * have been uploaded to the dispute's upload URL.
 */
export function resolveByMerchant(ctx: SimulatorContext, account: Account, dispute: DisputeRecord, input: MerchantResolution): DisputeRecord {
  assertOpen(dispute);
  if (dispute.status === 'awaiting-bank-feedback') throw badRequest('Dispute is awaiting the bank');
  if (!dispute.uploads.get(input.uploadedFilename)?.uploaded) {
    throw badRequest('uploaded_filename must name a file uploaded to this dispute’s upload URL');
  }
  if (input.evidenceId !== undefined && dispute.evidence?.id !== input.evidenceId) throw badRequest('Evidence not found for this dispute');
  const now = ctx.now();
  dispute.note = input.message;
  dispute.updatedAt = now;
  if (input.resolution === 'declined') {
    if (!dispute.evidence) throw badRequest('Evidence is required');
    dispute.status = 'awaiting-bank-feedback';
    dispute.history.push({ status: 'awaiting-bank-feedback', by: 'merchant', createdAt: now });
    return dispute;
  }
  if (input.refundAmount > dispute.refundAmount) throw badRequest('refund_amount cannot exceed the disputed amount');
  dispute.refundAmount = input.refundAmount;
  return settle(ctx, account, dispute, 'merchant-accepted', 'merchant');
}

/** The bank's final decision (simulator control); sends charge.dispute.resolve. */
export function resolveDispute(ctx: SimulatorContext, account: Account, dispute: DisputeRecord, resolution: DisputeResolution): DisputeRecord {
  assertOpen(dispute);
  return settle(ctx, account, dispute, resolution, 'bank');
}

function settle(ctx: SimulatorContext, account: Account, dispute: DisputeRecord, resolution: DisputeResolution, by: 'merchant' | 'bank'): DisputeRecord {
  const now = ctx.now();
  dispute.status = 'resolved';
  dispute.resolution = resolution;
  dispute.resolvedAt = now;
  dispute.updatedAt = now;
  dispute.history.push({ status: 'resolved', by, createdAt: now });
  ctx.callbacks.send(account.secretKey, 'charge.dispute.resolve', disputeToWire(account, dispute));
  return dispute;
}

function assertOpen(dispute: DisputeRecord): void {
  if (dispute.status === 'resolved') throw badRequest('Dispute has already been resolved');
}
