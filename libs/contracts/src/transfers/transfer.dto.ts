import { IsIn, IsISO8601, IsNumber, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ListQueryDto } from '../pagination';

export const TRANSFER_STATUSES = ['pending', 'success', 'failed', 'reversed'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** How a transfer names where the money goes: bank details in the request, or a saved recipient. */
export const TRANSFER_SOURCES = ['bank', 'wallet'] as const;
export type TransferSource = (typeof TRANSFER_SOURCES)[number];

/** A bank's code as the provider lists it (`GET /banks`): CBN codes such as "058", or "MPESA". */
export const TRANSFER_BANK_CODE_PATTERN = /^[A-Za-z0-9]{2,20}$/;
/** Digits only, kept as a string so leading zeros survive; an NGN account is a 10-digit NUBAN. */
export const TRANSFER_ACCOUNT_NUMBER_PATTERN = /^[0-9]{6,20}$/;
/** `RCP_` followed by 20 lowercase hex digits. */
export const RECIPIENT_CODE_PATTERN = /^RCP_[a-f0-9]{20}$/;

/**
 * Two forms (the spec's): the **bank form** names the account (`amount`, `bank_code`,
 * `account_number`, `account_name`, `narration`); the **wallet form** pays a saved recipient
 * (`source: "wallet"`, `amount`, `recipient`, `reason`). Mixing them is a `validation_error`.
 */
export class CreateTransferRequest {
  /**
   * Major unit, > 0, at most 2 decimals; taken from the available balance.
   * @example 25000
   */
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'amount must be a number' })
  amount: number;

  /** NGN when omitted. */
  @IsOptional()
  @IsString()
  @MaxLength(16)
  currency?: string;

  /** `wallet` for the wallet form; omitted (or `bank`) for the bank form. */
  @IsOptional()
  @IsIn(TRANSFER_SOURCES, { message: `source must be one of ${TRANSFER_SOURCES.join(', ')}` })
  source?: TransferSource;

  /** Bank form. @example "058" */
  @IsOptional()
  @IsString()
  @Matches(TRANSFER_BANK_CODE_PATTERN, { message: 'bank_code must be a bank code from GET /banks (letters and digits)' })
  bank_code?: string;

  /** Bank form. @example "0123456789" */
  @IsOptional()
  @IsString()
  @Matches(TRANSFER_ACCOUNT_NUMBER_PATTERN, { message: 'account_number must be 6 to 20 digits, as a string' })
  account_number?: string;

  /** Bank form: the account holder's name. @example "ADA LOVELACE" */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  account_name?: string;

  /** Bank form: what the recipient's bank statement shows. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  narration?: string;

  /** Wallet form: a recipient code from `POST /transfers/recipients`. @example "RCP_5f0c3e1a9b2d4c6e8f10" */
  @IsOptional()
  @IsString()
  @Matches(RECIPIENT_CODE_PATTERN, { message: 'recipient must be a recipient code (RCP_…)' })
  recipient?: string;

  /** Wallet form: what the recipient's bank statement shows. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  reason?: string;
}

export class ListTransfersQuery extends ListQueryDto {
  @IsOptional()
  @IsIn(TRANSFER_STATUSES, { message: `status must be one of ${TRANSFER_STATUSES.join(', ')}` })
  status?: TransferStatus;

  @IsOptional()
  @IsString()
  @MaxLength(16)
  currency?: string;

  /** A recipient code: that recipient's transfers. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  recipient?: string;

  /** Created at or after (ISO 8601). */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date-time' })
  from?: string;

  /** Created before (ISO 8601). */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date-time' })
  to?: string;
}

/** Where a transfer goes. The full account number is never returned, only its last 4 digits. */
export class TransferRecipientResponse {
  /** @example "RCP_5f0c3e1a9b2d4c6e8f10" */
  recipient_code: string;
  /** As the bank resolved it. @example "ADA LOVELACE" */
  account_name: string;
  /** @example "6789" */
  account_number_last4: string;
  /** @example "058" */
  bank_code: string;
  bank_name: string;
  currency: string;
  created_at: string;
}

export class TransferResponse {
  /** Ours, and the provider's reference for this payout (so a retry never pays twice). @example "trf_9c1d2e3f4a5b6c7d8e9f0a1b" */
  reference: string;
  status: TransferStatus;
  /** @example 25000 */
  amount: number;
  currency: string;
  source: TransferSource;
  recipient: TransferRecipientResponse;
  /** The narration (bank form) or reason (wallet form). */
  reason: string | null;
  /** Why it failed or was reversed, as the provider said; null otherwise. */
  failure_reason: string | null;
  created_at: string;
  /** When it reached `success`, `failed` or `reversed`. */
  completed_at: string | null;
}

export class CreateTransferRecipientRequest {
  /** @example "058" */
  @IsString()
  @Matches(TRANSFER_BANK_CODE_PATTERN, { message: 'bank_code must be a bank code from GET /banks (letters and digits)' })
  bank_code: string;

  /** @example "0123456789" */
  @IsString()
  @Matches(TRANSFER_ACCOUNT_NUMBER_PATTERN, { message: 'account_number must be 6 to 20 digits, as a string' })
  account_number: string;

  /** NGN when omitted: recipients are paid in their own currency. */
  @IsOptional()
  @IsString()
  @MaxLength(16)
  currency?: string;
}

export class ListBanksQuery {
  /** NGN when omitted. */
  @IsOptional()
  @IsString()
  @MaxLength(16)
  currency?: string;
}

export class BankResponse {
  /** @example "Guaranty Trust Bank" */
  name: string;
  /** Pass as `bank_code`. @example "058" */
  code: string;
  currency: string;
  /** The provider's kind of account (`nuban`, `mobile_money`, …). */
  type: string;
}
