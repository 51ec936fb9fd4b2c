import type { SimulatorContext } from '../context';
import { FAILING_TRANSFER_ACCOUNT_NUMBER, TRANSFER_FAILURE_REASON, findBankByCode } from '../banks';
import { badRequest, notFound } from '../errors';
import type { Currency, MinorUnits } from '../money';
import { transferToWire } from '../serializers';
import type { Account } from '../state/accounts';
import type { RecipientRecord, TransferRecord } from '../state/transfers';
import { cancelScheduledCompletion, scheduleCompletion } from './completions';

export interface RecipientInput {
  name: string;
  accountNumber: string;
  bankCode: string;
  currency: Currency;
}

/**
 * Adds a bank-account recipient. Adding the same bank account again returns
 * the existing recipient (as Paystack does), so retries are harmless.
 * The account name is taken from the request — there is no bank to resolve it.
 */
export function createRecipient(ctx: SimulatorContext, account: Account, input: RecipientInput): RecipientRecord {
  if (!/^\d{10}$/.test(input.accountNumber)) throw badRequest('account_number must be 10 digits');
  const bank = findBankByCode(input.bankCode);
  if (!bank) throw badRequest('Unknown bank code. See GET /bank');
  const existing = account.recipients.findByAccount(bank.code, input.accountNumber);
  if (existing) return existing;
  return account.recipients.add({
    id: ctx.ids.numericId(),
    recipientCode: ctx.ids.code('RCP'),
    type: 'nuban',
    name: input.name,
    accountNumber: input.accountNumber,
    accountName: input.name.toUpperCase(),
    bankCode: bank.code,
    bankName: bank.name,
    currency: input.currency,
    createdAt: ctx.now(),
  });
}

export interface TransferInput {
  amount: MinorUnits;
  recipientCode: string;
  reason: string | undefined;
  reference: string | undefined;
  currency: Currency;
}

export type TransferOutcome = 'success' | 'failed';

/**
 * Starts a payout from the (unlimited, simulated) balance. It is "pending"
 * until it settles; a transfer to the documented failing account number
 * (0000000000) fails. The same reference with the same payload returns the
 * original transfer.
 */
export function createTransfer(ctx: SimulatorContext, account: Account, input: TransferInput): TransferRecord {
  const recipient = account.recipients.find(input.recipientCode);
  if (!recipient) throw badRequest('Recipient specified is invalid');
  const reference = input.reference ?? ctx.ids.reference();
  const existing = account.transfers.find(reference);
  if (existing) {
    const sameTransfer =
      existing.amount === input.amount &&
      existing.currency === input.currency &&
      existing.recipientCode === input.recipientCode;
    if (sameTransfer) return existing;
    throw badRequest('Duplicate Transfer Reference');
  }

  const now = ctx.now();
  const transfer = account.transfers.add({
    id: ctx.ids.numericId(),
    transferCode: ctx.ids.code('TRF'),
    reference,
    amount: input.amount,
    currency: input.currency,
    recipientCode: recipient.recipientCode,
    reason: input.reason ?? null,
    status: 'pending',
    failureReason: null,
    transferredAt: null,
    createdAt: now,
    updatedAt: now,
  });
  scheduleCompletion(ctx, account, completionKey(transfer), () =>
    completeTransfer(ctx, account, transfer, naturalOutcome(recipient)),
  );
  return transfer;
}

export function findTransfer(account: Account, reference: string): TransferRecord {
  const transfer = account.transfers.find(reference);
  if (!transfer) throw notFound('Transfer not found');
  return transfer;
}

/** Settles a pending transfer and sends transfer.success / transfer.failed. */
export function completeTransfer(
  ctx: SimulatorContext,
  account: Account,
  transfer: TransferRecord,
  outcome?: TransferOutcome,
): TransferRecord {
  if (transfer.status !== 'pending') throw badRequest(`Transfer is already ${transfer.status}`);
  cancelScheduledCompletion(account, completionKey(transfer));
  const recipient = account.recipients.find(transfer.recipientCode);
  const finalOutcome = outcome ?? (recipient ? naturalOutcome(recipient) : 'failed');
  const now = ctx.now();
  transfer.status = finalOutcome;
  transfer.updatedAt = now;
  if (finalOutcome === 'success') transfer.transferredAt = now;
  else transfer.failureReason = TRANSFER_FAILURE_REASON;
  ctx.callbacks.send(
    account.secretKey,
    finalOutcome === 'success' ? 'transfer.success' : 'transfer.failed',
    transferToWire(account, transfer),
  );
  return transfer;
}

function naturalOutcome(recipient: RecipientRecord): TransferOutcome {
  return recipient.accountNumber === FAILING_TRANSFER_ACCOUNT_NUMBER ? 'failed' : 'success';
}

function completionKey(transfer: TransferRecord): string {
  return `transfer:${transfer.reference}`;
}
