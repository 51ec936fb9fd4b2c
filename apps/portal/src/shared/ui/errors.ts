import { isApiError } from '../api-client';

/** The API asks for a step-up code (`totp_required`) or refused the one sent (`totp_invalid`). */
export function needsTotp(error: unknown): boolean {
  return isApiError(error) && (error.code === 'totp_required' || error.code === 'totp_invalid');
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
