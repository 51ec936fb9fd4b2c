import { IsIn } from 'class-validator';
import { type Mode, MODES } from '../common';
import type { AccountRole, PlatformRole } from './roles';

/** The developer account a portal user works in. */
export class MeAccountResponse {
  developer_id: string;
  name: string;
  role: AccountRole;
  email_verified: boolean;
  identity_verified: boolean;
}

export class MeResponse {
  id: string;
  email: string;
  name: string;
  email_verified: boolean;
  totp_enabled: boolean;
  platform_role: PlatformRole | null;
  /** Null for platform staff without a developer account. */
  account: MeAccountResponse | null;
  session: { mode: Mode; expires_at: string; idle_expires_at: string };
}

export class TotpEnrollResponse {
  /** Base32; shown only here. Confirm with POST /api/portal/me/totp/confirm. */
  secret: string;
  otpauth_url: string;
}

export class TotpStatusResponse {
  totp_enabled: boolean;
}

export class SetModeRequest {
  @IsIn(MODES)
  mode: Mode;
}

export class ModeResponse {
  mode: Mode;
}
