import type { CreateTransferRequest, FieldErrors } from '@gateway/contracts';
import type { NewTransfer } from '@gateway/domain/transfers';
import { DomainError } from '@gateway/platform';

const BANK_FIELDS = ['bank_code', 'account_number', 'account_name', 'narration'] as const;
const WALLET_FIELDS = ['recipient', 'reason'] as const;

/**
 * Which of the spec's two forms the body is, with every field the form needs. A body that mixes
 * the forms, or misses a field, is refused naming each field.
 * @throws validation_error
 */
export function transferForm(body: CreateTransferRequest): NewTransfer {
  const errors = transferFormErrors(body);
  if (Object.keys(errors).length > 0) throw new DomainError('validation_error', 'The request is invalid.', errors);
  return toNewTransfer(body);
}

/** What is wrong with the body's form (fields of the other form, missing fields of its own), by field; empty when nothing. */
export function transferFormErrors(body: CreateTransferRequest): FieldErrors {
  const errors: FieldErrors = {};
  const wallet = body.source === 'wallet';
  for (const field of wallet ? BANK_FIELDS : WALLET_FIELDS) {
    if (body[field] !== undefined) errors[field] = [`is not part of the ${wallet ? 'wallet' : 'bank'} form`];
  }
  const required = wallet ? (['recipient'] as const) : (['bank_code', 'account_number', 'account_name'] as const);
  for (const field of required) if (body[field] === undefined) errors[field] = [`is required in the ${wallet ? 'wallet' : 'bank'} form`];
  return errors;
}

/** The body as the transfers service takes it; its form was checked by transferFormErrors. */
export function toNewTransfer(body: CreateTransferRequest): NewTransfer {
  const common = { amount: body.amount, currency: body.currency };
  return body.source === 'wallet'
    ? { ...common, source: 'wallet', recipientCode: body.recipient as string, reason: body.reason }
    : { ...common, source: 'bank', bankCode: body.bank_code as string, accountNumber: body.account_number as string, accountName: body.account_name as string, reason: body.narration };
}
