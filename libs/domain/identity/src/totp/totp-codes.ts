import { authenticator } from 'otplib';

/** RFC 6238 defaults every authenticator app understands: HMAC-SHA1, 6 digits, 30-second steps. */
export const TOTP_STEP_SECONDS = 30;
/** Codes from one step before or after now are accepted (clock drift, typing time). */
export const TOTP_WINDOW_STEPS = 1;
const SECRET_BYTES = 20;

const base = authenticator.clone({ step: TOTP_STEP_SECONDS, window: TOTP_WINDOW_STEPS, digits: 6 });

/** A new random base32 secret (160 bits, as RFC 4226 recommends). */
export function generateTotpSecret(): string {
  return base.generateSecret(SECRET_BYTES);
}

export function totpStepAt(at: Date): number {
  return Math.floor(at.getTime() / 1000 / TOTP_STEP_SECONDS);
}

/** The code for `secret` at `at` (tests and tools; the server only ever checks codes). */
export function totpCodeAt(secret: string, at: Date): string {
  return base.clone({ epoch: at.getTime() }).generate(secret);
}

/**
 * The time step `code` belongs to, within ±1 step of `at`, or null. Returning the step (not a
 * boolean) is what lets the caller refuse a code that was already used.
 */
export function matchTotpStep(secret: string, code: string, at: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = base.clone({ epoch: at.getTime() }).checkDelta(code, secret);
  return delta === null ? null : totpStepAt(at) + delta;
}

export function otpauthUrl(secret: string, accountName: string, issuer: string): string {
  return base.keyuri(accountName, issuer, secret);
}
