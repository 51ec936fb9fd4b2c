import { isApiError } from '../api-client';

/** The API asks for a step-up code (`totp_required`) or refused the one sent (`totp_invalid`). */
export function needsTotp(error: unknown): boolean {
  return isApiError(error) && (error.code === 'totp_required' || error.code === 'totp_invalid');
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A `validation_error`'s messages per form field (`{ cidr: 'must be …' }`), for `form.setErrors`;
 * empty for any other error, which the form shows as a whole instead.
 */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!isApiError(error) || !error.errors) return {};
  return Object.fromEntries(Object.entries(error.errors).map(([field, messages]) => [field, messages.join(' ')]));
}
