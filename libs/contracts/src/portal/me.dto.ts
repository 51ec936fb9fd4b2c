import { IsIn } from 'class-validator';
import { type Mode, MODES } from '../common';
import type { AccountRole, PlatformRole } from './roles';

export interface MeResponse {
  id: string;
  email: string;
  name: string;
  email_verified: boolean;
  totp_enabled: boolean;
  platform_role: PlatformRole | null;
  /** Null for platform staff without a developer account. */
  account: {
    developer_id: string;
    name: string;
    role: AccountRole;
    email_verified: boolean;
    identity_verified: boolean;
  } | null;
  session: { mode: Mode; expires_at: string; idle_expires_at: string };
}

export interface TotpEnrollResponse {
  /** Base32; shown only here. Confirm with POST /api/portal/me/totp/confirm. */
  secret: string;
  otpauth_url: string;
}

export interface TotpStatusResponse {
  totp_enabled: boolean;
}

export class SetModeRequest {
  @IsIn(MODES)
  mode: Mode;
}

export interface ModeResponse {
  mode: Mode;
}
