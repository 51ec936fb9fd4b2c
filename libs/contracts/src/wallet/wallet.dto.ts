import { IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import { ListQueryDto } from '../pagination';

export const LEDGER_ENTRY_TYPES = ['credit', 'debit', 'fee', 'settlement', 'virtual_account_credit'] as const;
export type LedgerEntryType = (typeof LEDGER_ENTRY_TYPES)[number];

export const WALLET_BALANCE_TYPES = ['available', 'pending', 'reserved'] as const;
export type WalletBalanceType = (typeof WALLET_BALANCE_TYPES)[number];

/**
 * `?currency=` (default NGN). Checked by the controller rather than here, so an unsupported
 * currency answers with the spec's `invalid_currency` instead of `validation_error`.
 */
export class WalletBalanceQuery {
  @IsOptional()
  @IsString()
  @MaxLength(16)
  currency?: string;
}

export class ListLedgerEntriesQuery extends ListQueryDto {
  /** All currencies when omitted; unsupported → 400 `invalid_currency`. */
  @IsOptional()
  @IsString()
  @MaxLength(16)
  currency?: string;

  @IsOptional()
  @IsIn(LEDGER_ENTRY_TYPES, { message: `type must be one of ${LEDGER_ENTRY_TYPES.join(', ')}` })
  type?: LedgerEntryType;

  /** The public reference of a payment, refund, transfer… */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  reference?: string;

  /** Entries created at or after this instant (ISO 8601). */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date or date-time' })
  from?: string;

  /** Entries created at or before this instant (ISO 8601). */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date or date-time' })
  to?: string;
}

export class WalletBalanceResponse {
  available_balance: number;
  pending_balance: number;
  reserved_balance: number;
  /** available + pending + reserved */
  total_balance: number;
  currency: string;
}

export class LedgerEntryResponse {
  id: string;
  type: LedgerEntryType;
  /** Always positive; `direction` says which way it moved the balance. */
  amount: number;
  direction: 'credit' | 'debit';
  /** The wallet balance the entry moved. */
  balance_type: WalletBalanceType;
  currency: string;
  /** The public reference of what caused it (payment, refund, transfer, …). */
  reference: string;
  description: string;
  created_at: string;
}
