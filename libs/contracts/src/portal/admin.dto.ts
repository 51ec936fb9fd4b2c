import { IsEmail, IsNumber, IsString, MaxLength, Min, MinLength } from 'class-validator';
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
  /** Flat platform fee per successful transaction in the major unit; 0 = no fee. */
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 }, { message: 'amount must be a number with at most 2 decimals' })
  @Min(0)
  amount: number;
}

export interface FeeOverrideResponse {
  currency: string;
  amount: number;
}

export interface AdminDeveloperResponse {
  id: string;
  email: string;
  name: string;
  email_verified: boolean;
  identity_verified: boolean;
  created_at: string;
  fee_overrides: FeeOverrideResponse[];
}

export interface ProvisionedDeveloperResponse {
  developer: AdminDeveloperResponse;
  owner_invitation: InvitationResponse;
}
