import { IsObject, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

/**
 * Any 3–6 digit bank code (CBN 3-digit codes and 5–6 digit NIP codes of microfinance banks).
 * The gateway keeps no bank list of its own: the upstream provider owns it and a copy here would go
 * stale; an unknown code is refused by the provider when money is first sent there.
 */
export const SUBACCOUNT_BANK_CODE_PATTERN = /^[0-9]{3,6}$/;
/** A NUBAN: exactly 10 digits, kept as a string so leading zeros survive. */
export const NUBAN_PATTERN = /^[0-9]{10}$/;
/** `ACCT_` followed by 10 lowercase letters or digits. */
export const SUBACCOUNT_CODE_PATTERN = /^ACCT_[a-z0-9]{10}$/;

export class CreateSubaccountRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  business_name: string;

  @IsString()
  @Matches(SUBACCOUNT_BANK_CODE_PATTERN, { message: 'bank_code must be a bank code of 3 to 6 digits, as a string (e.g. "058")' })
  bank_code: string;

  @IsString()
  @Matches(NUBAN_PATTERN, { message: 'account_number must be a 10-digit NUBAN, as a string' })
  account_number: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  account_name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;
}

/** A sub-account on the wire. The full account number is never returned, only its last 4 digits. */
export class SubaccountResponse {
  code: string;
  business_name: string;
  bank_code: string;
  account_number_last4: string;
  account_name: string | null;
  description: string | null;
  active: boolean;
  metadata: Record<string, unknown>;
  created_at: string;
}
