import { IsIn, IsISO8601, IsNumber, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ListQueryDto } from '../pagination';
import { TRANSFER_ACCOUNT_NUMBER_PATTERN, TRANSFER_BANK_CODE_PATTERN } from '../transfers/transfer.dto';

export const SETTLEMENT_STATUSES = ['pending_approval', 'approved', 'processing', 'completed', 'failed', 'rejected'] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];

/** Who asked: a person in the portal, or the auto-settlement run. */
export const SETTLEMENT_ORIGINS = ['manual', 'auto'] as const;
export type SettlementOrigin = (typeof SETTLEMENT_ORIGINS)[number];

export const AUTO_SETTLEMENT_FREQUENCIES = ['daily', 'weekly', 'manual'] as const;
export type AutoSettlementFrequency = (typeof AUTO_SETTLEMENT_FREQUENCIES)[number];

export class ListSettlementsQuery extends ListQueryDto {
  @IsOptional()
  @IsIn(SETTLEMENT_STATUSES, { message: `status must be one of ${SETTLEMENT_STATUSES.join(', ')}` })
  status?: SettlementStatus;

  @IsOptional()
  @IsString()
  @MaxLength(16)
  currency?: string;

  /** Requested at or after (ISO 8601). */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date-time' })
  from?: string;

  /** Requested before (ISO 8601). */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date-time' })
  to?: string;
}

/** The bank account a settlement pays, as it was when the settlement was requested. */
export class SettlementBankAccountResponse {
  /** @example "058" */
  bank_code: string;
  /** @example "ADA LOVELACE" */
  account_name: string;
  /** @example "6789" */
  account_number_last4: string;
}

/** A withdrawal from the wallet to the account's registered bank account. */
export class SettlementResponse {
  /** @example "stl_4c1d2e3f4a5b6c7d8e9f0a1b" */
  reference: string;
  status: SettlementStatus;
  /** @example 150000 */
  amount: number;
  currency: string;
  origin: SettlementOrigin;
  bank_account: SettlementBankAccountResponse;
  /** When it was requested (its funds reserved). */
  created_at: string;
  approved_at: string | null;
  /** When it reached `completed`, `failed` or `rejected`. */
  completed_at: string | null;
  /** Why the provider could not pay it (`failed`). */
  failure_reason: string | null;
  /** The approver's reason (`rejected`). */
  rejection_reason: string | null;
}

/** One approval or rejection, with who made it, when and from where. */
export class SettlementDecisionResponse {
  decision: 'approve' | 'reject';
  /** The person's e-mail; `auto-approval` for an auto-settlement within the auto-approve limit. */
  by: string;
  ip: string | null;
  reason: string | null;
  at: string;
}

/** A settlement as platform staff see it in the approval queue. */
export class AdminSettlementResponse extends SettlementResponse {
  developer_id: string;
  developer_name: string;
  /** The person who asked (e-mail); null for an auto-settlement. */
  requested_by: string | null;
  requested_ip: string | null;
  /** 2 above SETTLEMENT_TWO_PERSON_THRESHOLD, else 1. */
  approvals_required: number;
  decisions: SettlementDecisionResponse[];
  /** The account's available balance in the settlement's currency now (its funds are reserved already). */
  available_balance: number;
}

/** Portal: where settlements are paid, and how often they happen on their own. */
export class SettlementSettingsResponse {
  bank_code: string | null;
  account_name: string | null;
  account_number_last4: string | null;
  auto_settlement_frequency: AutoSettlementFrequency;
}

export class SetSettlementAccountRequest {
  /** @example "058" */
  @IsString()
  @Matches(TRANSFER_BANK_CODE_PATTERN, { message: 'bank_code must be a bank code from GET /banks (letters and digits)' })
  bank_code: string;

  /** A 10-digit NUBAN (settlements are paid in NGN). @example "0123456789" */
  @IsString()
  @Matches(TRANSFER_ACCOUNT_NUMBER_PATTERN, { message: 'account_number must be 6 to 20 digits, as a string' })
  account_number: string;
}

export class SetAutoSettlementRequest {
  @IsIn(AUTO_SETTLEMENT_FREQUENCIES, { message: `frequency must be one of ${AUTO_SETTLEMENT_FREQUENCIES.join(', ')}` })
  frequency: AutoSettlementFrequency;
}

export class RequestSettlementRequest {
  /** Major unit; taken from the available balance at once. @example 150000 */
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'amount must be a number' })
  amount: number;

  /** NGN when omitted. */
  @IsOptional()
  @IsString()
  @MaxLength(16)
  currency?: string;
}

export class RejectSettlementRequest {
  /** Shown to the account. */
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason: string;
}
