import type { ErrorCode, FieldErrors } from '@gateway/contracts';

/**
 * The one error type domain code throws. Transports map `code` to their own representation
 * (the API's filter turns it into the error envelope with the status from ERROR_HTTP_STATUS).
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors?: FieldErrors,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export function validationError(field: string, message: string): DomainError {
  return new DomainError('validation_error', 'The request is invalid.', { [field]: [message] });
}
