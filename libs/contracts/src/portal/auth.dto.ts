import { IsEmail, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import type { MeResponse } from './me.dto';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

export class LoginRequest {
  @IsString()
  @MaxLength(254)
  email: string;

  @IsString()
  @MaxLength(PASSWORD_MAX_LENGTH)
  password: string;
}

export class TotpCodeRequest {
  @Matches(/^\d{6}$/, { message: 'code must be the 6-digit code of your authenticator app' })
  code: string;
}

/** `totp_required`: the password was right; send the code to POST /api/portal/auth/login/totp. */
export class LoginResponse {
  stage: 'active' | 'totp_required';
  /** Echo in X-CSRF-Token on every POST/PUT/PATCH/DELETE of this session. */
  csrf_token: string;
  /** Present once the session is fully signed in. */
  user?: MeResponse;
}

export class CsrfTokenResponse {
  csrf_token: string;
}

export class PasswordResetRequest {
  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  @MaxLength(254)
  email: string;
}

export class TokenRequest {
  @IsString()
  @MinLength(20)
  @MaxLength(200)
  token: string;
}

export class PasswordResetConfirmRequest extends TokenRequest {
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password: string;
}

export class AcceptInvitationRequest extends PasswordResetConfirmRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;
}

/** Answered for a password-reset request whatever the address, so it reveals no accounts. */
export class AcceptedResponse {
  accepted: true;
}
