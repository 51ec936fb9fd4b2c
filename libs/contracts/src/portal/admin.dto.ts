import { IsEmail, IsNumber, IsString, MaxLength, Min, MinLength } from 'class-validator';
import type { FeeOverrideChangeResponse } from './admin-developers.dto';
import type { InvitationResponse } from './team.dto';

export class ProvisionDeveloperRequest {
  /** The account's e-mail; its owner is invited there. */
  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  @MaxLength(254)
  email: string;

  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;
}

export class SetFeeOverrideRequest {
  /** Flat platform fee per successful transaction in the major unit, at most 2 decimals; 0 = no fee. */
  // Exactness (2 decimals, no float artefacts, a size that keeps its cents) is checked by the
  // controller's parseRequestAmount: class-validator's maxDecimalPlaces throws on `1e-7`.
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'amount must be a number' })
  @Min(0)
  amount: number;
}

export class FeeOverrideResponse {
  currency: string;
  amount: number;
}

export class AdminDeveloperResponse {
  id: string;
  email: string;
  name: string;
  email_verified: boolean;
  identity_verified: boolean;
  email_verified_at: string | null;
  identity_verified_at: string | null;
  status: 'active' | 'suspended';
  suspended_at: string | null;
  suspension_reason: string | null;
  created_at: string;
  fee_overrides: FeeOverrideResponse[];
  /** Every change of the fee overrides, newest first (also at GET …/fees/history). */
  fee_override_history: FeeOverrideChangeResponse[];
}

export class ProvisionedDeveloperResponse {
  developer: AdminDeveloperResponse;
  owner_invitation: InvitationResponse;
}
