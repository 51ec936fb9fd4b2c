import { IsIn, IsNumber, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { ListQueryDto } from '../pagination';

export const VIRTUAL_ACCOUNT_STATUSES = ['active', 'inactive'] as const;
export type VirtualAccountStatus = (typeof VIRTUAL_ACCOUNT_STATUSES)[number];

export class CreateVirtualAccountRequest {
  /**
   * The customer (`CUS_…`) the account is for. The customer needs a first and a last name (its
   * `name`) and a `phone`: the provider requires them for a dedicated account.
   * @example "CUS_6f1c2a9e0b7d4c3a8e51"
   */
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  customer_reference: string;
}

export class ListVirtualAccountsQuery extends ListQueryDto {
  @IsOptional()
  @IsIn(VIRTUAL_ACCOUNT_STATUSES)
  status?: VirtualAccountStatus;

  /** A customer reference (`CUS_…`). */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  customer?: string;
}

export class VirtualAccountResponse {
  /** `va_…`, used in paths. */
  id: string;
  /** The number the customer pays into by bank transfer. */
  account_number: string;
  account_name: string;
  bank_name: string;
  customer_reference: string;
  /** Always `NGN`: dedicated accounts are naira accounts. */
  currency: string;
  status: VirtualAccountStatus;
  created_at: string;
  deactivated_at: string | null;
}

/**
 * A bank transfer received into a virtual account, as credited to the wallet. Also the object of
 * `virtual_account.credited`.
 */
export class VirtualAccountDepositResponse {
  /** `vad_…`, the deposit's own reference (the ledger entries carry it). */
  reference: string;
  virtual_account_id: string;
  customer_reference: string;
  /** What the sender transferred (major unit). */
  amount: number;
  currency: string;
  /** The platform's fee on the deposit (decisions.md: the same flat fee as a payment). */
  platform_fee: number;
  /** The provider's fee, as the provider reported it. */
  provider_fee: number;
  /** amount − platform_fee − provider_fee: what the wallet gained. */
  net_amount: number;
  /** As the sender's bank reported them; null when it did not. */
  sender_name: string | null;
  sender_bank: string | null;
  /** When the provider received the money. */
  paid_at: string;
  created_at: string;
}

/** Test mode: a bank transfer into the virtual account, as a customer would make it. */
export class SandboxVirtualAccountDepositRequest {
  /**
   * Major unit, NGN, > 0, at most 2 decimals.
   * @example 5000
   */
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'amount must be a number' })
  amount: number;

  /** Shown as the sender; the simulator's default when omitted. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  sender_name?: string;
}

/** A deposit the gateway could not match to any virtual account, as platform staff see it. */
export class AdminUnmatchedDepositResponse {
  reference: string;
  mode: string;
  /** The account number the money was sent to, as the provider reported it; null when it did not say. */
  account_number: string | null;
  amount: number;
  currency: string;
  provider_fee: number | null;
  sender_name: string | null;
  sender_bank: string | null;
  paid_at: string;
  created_at: string;
}
