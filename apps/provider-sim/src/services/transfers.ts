import type { SimulatorContext } from '../context';
import type { CallbackEvent } from '../callbacks';
import {
  FAILING_TRANSFER_ACCOUNT_NUMBER,
  RECIPIENT_TYPE_CURRENCIES,
  REVERSING_TRANSFER_ACCOUNT_NUMBER,
  SILENT_TRANSFER_ACCOUNT_NUMBER,
  TRANSFER_FAILURE_REASON,
  findBank,
  type RecipientType,
} from '../banks';
import { badRequest, duplicateReference, invalidRecipient, notFound } from '../errors';
import type { Currency, MinorUnits } from '../money';
import { transferToWire } from '../serializers';
import type { Account } from '../state/accounts';
import type { RecipientRecord, TransferRecord } from '../state/transfers';
import { cancelScheduledCompletion, scheduleCompletion } from './completions';

/** The OTP the simulator accepts on /transfer/finalize_transfer (the `transfer_otp` knob). */
export const TRANSFER_OTP = '123456';

export interface RecipientInput {
  type: RecipientType;
  name: string;
  accountNumber: string;
  bankCode: string;
  currency: Currency;
}

/**
 * Adds a bank-account or mobile-money recipient. Its type must fit its currency (nuban NGN,
 * kepss KES, mobile_money GHS/KES, …) and its bank. Adding the same account again returns the
 * existing recipient (as Paystack does), so retries are harmless. The account name is the one
 * given in the request (upper-cased), not the one `GET /bank/resolve` answers: callers resolve
 * first and pass the name on.
 */
export function createRecipient(ctx: SimulatorContext, account: Account, input: RecipientInput): RecipientRecord {
  if (!RECIPIENT_TYPE_CURRENCIES[input.type].includes(input.currency)) {
    throw badRequest(`Recipients of type "${input.type}" are paid in ${RECIPIENT_TYPE_CURRENCIES[input.type].join(' or ')}`);
  }
  if (input.type === 'nuban' && !/^\d{10}$/.test(input.accountNumber)) throw badRequest('account_number must be 10 digits');
  if (!/^\d{6,20}$/.test(input.accountNumber)) throw badRequest('Account number should be numeric');
  const bank = findBank(input.bankCode, input.type);
  if (!bank || bank.currency !== input.currency) throw badRequest('Unknown bank code. See GET /bank');
  const existing = account.recipients.findByAccount(bank.code, input.accountNumber);
  if (existing) return existing;
  return account.recipients.add({
    id: ctx.ids.numericId(),
    recipientCode: ctx.ids.code('RCP'),
    type: input.type,
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
 * Paystack's rule for transfer references (API reference, Initiate Transfer): lowercase letters,
 * digits, `-` and `_`, at least 16 characters.
 */
const TRANSFER_REFERENCE = /^[a-z0-9_-]+$/;
const TRANSFER_REFERENCE_MIN_LENGTH = 16;

/**
 * Starts a payout from the (unlimited, simulated) balance. It is `pending` until it settles —
 * or `otp` first, when the `transfer_otp` knob plays an account that requires an OTP. The
 * recipient's account number decides the outcome (see `completeTransfer`). A reused reference is
 * refused (`400 duplicate_reference`; verify the reference to learn the first transfer's fate),
 * unless the `duplicate_references` knob says `replay` and the request is the same.
 */
export function createTransfer(ctx: SimulatorContext, account: Account, input: TransferInput): TransferRecord {
  const recipient = account.recipients.find(input.recipientCode);
  if (!recipient) throw invalidRecipient();
  if (recipient.currency !== input.currency) throw badRequest(`The recipient is paid in ${recipient.currency}, not ${input.currency}`);
  const reference = input.reference ?? ctx.ids.reference();
  if (!TRANSFER_REFERENCE.test(reference)) throw badRequest('Your reference contains illegal special characters');
  if (reference.length < TRANSFER_REFERENCE_MIN_LENGTH) {
    throw badRequest(`reference must be at least ${TRANSFER_REFERENCE_MIN_LENGTH} characters`);
  }
  const existing = account.transfers.find(reference);
  if (existing) {
    const sameTransfer =
      existing.amount === input.amount && existing.currency === input.currency && existing.recipientCode === input.recipientCode;
    if (sameTransfer && ctx.knobs.current.duplicateReferences === 'replay') return existing;
    throw duplicateReference('Please provide a unique reference. Reference already exists on a transfer', 'Create a new reference for the new transfer');
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
    status: ctx.knobs.current.transferOtp ? 'otp' : 'pending',
    failureReason: null,
    transferredAt: null,
    createdAt: now,
    updatedAt: now,
  });
  if (transfer.status === 'pending') scheduleSettlement(ctx, account, transfer, recipient);
  return transfer;
}

/** `POST /transfer/finalize_transfer`: the OTP releases a transfer waiting in `otp`. */
export function finalizeTransfer(ctx: SimulatorContext, account: Account, transferCode: string, otp: string): TransferRecord {
  const transfer = account.transfers.findByCode(transferCode);
  if (!transfer) throw badRequest('Transfer code is invalid');
  if (transfer.status !== 'otp') throw badRequest(`Transfer is not awaiting an OTP (it is ${transfer.status})`);
  if (otp !== TRANSFER_OTP) throw badRequest('Invalid OTP');
  transfer.status = 'pending';
  transfer.updatedAt = ctx.now();
  const recipient = account.recipients.find(transfer.recipientCode);
  if (recipient) scheduleSettlement(ctx, account, transfer, recipient);
  return transfer;
}

export function findTransfer(account: Account, reference: string): TransferRecord {
  const transfer = account.transfers.find(reference);
  if (!transfer) throw notFound('Transfer not found');
  return transfer;
}

/**
 * Settles a pending transfer: `success` with `transfer.success`, or `failed` with
 * `transfer.failed`. Without an outcome the recipient's account number decides:
 * - `0000000000` fails ("Could not credit account");
 * - `0000000001` succeeds, but no callback is ever sent for it (the gateway must verify);
 * - `0000000002` succeeds, then is reversed `transfer_delay_ms` later (see `reverseTransfer`);
 * - any other succeeds.
 */
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
  notify(ctx, account, transfer, finalOutcome === 'success' ? 'transfer.success' : 'transfer.failed');
  // The bank behind 0000000002 sends back whatever reaches it; with auto_complete off the
  // reversal waits for /sim/transfers/:reference/complete like every other settlement.
  if (finalOutcome === 'success' && recipient?.accountNumber === REVERSING_TRANSFER_ACCOUNT_NUMBER) {
    scheduleCompletion(ctx, account, reversalKey(transfer), () => reverseTransfer(ctx, account, transfer));
  }
  return transfer;
}

/**
 * The bank sent a paid transfer back: `success` → `reversed`, with `transfer.reversed` (the same
 * payload as the other transfer events; `transferred_at` stays, as in Paystack's sample). Only a
 * successful transfer can be reversed: Paystack documents reversal of money that was sent
 * (its `transfer.reversed` sample carries a `transferred_at`), so anything else is a 400.
 */
export function reverseTransfer(ctx: SimulatorContext, account: Account, transfer: TransferRecord): TransferRecord {
  if (transfer.status !== 'success') throw badRequest(`Only a successful transfer can be reversed; this one is ${transfer.status}`);
  cancelScheduledCompletion(account, reversalKey(transfer));
  transfer.status = 'reversed';
  transfer.updatedAt = ctx.now();
  notify(ctx, account, transfer, 'transfer.reversed');
  return transfer;
}

/** Sends the transfer's callback — except for the account whose transfers never call back. */
function notify(ctx: SimulatorContext, account: Account, transfer: TransferRecord, event: CallbackEvent): void {
  if (account.recipients.find(transfer.recipientCode)?.accountNumber === SILENT_TRANSFER_ACCOUNT_NUMBER) return;
  ctx.callbacks.send(account.secretKey, event, transferToWire(account, transfer));
}

function scheduleSettlement(ctx: SimulatorContext, account: Account, transfer: TransferRecord, recipient: RecipientRecord): void {
  scheduleCompletion(ctx, account, completionKey(transfer), () => completeTransfer(ctx, account, transfer, naturalOutcome(recipient)));
}

function naturalOutcome(recipient: RecipientRecord): TransferOutcome {
  return recipient.accountNumber === FAILING_TRANSFER_ACCOUNT_NUMBER ? 'failed' : 'success';
}

function completionKey(transfer: TransferRecord): string {
  return `transfer:${transfer.reference}`;
}

function reversalKey(transfer: TransferRecord): string {
  return `transfer-reversal:${transfer.reference}`;
}
