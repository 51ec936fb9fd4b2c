/**
 * Paystack's error body: `{ status: false, message, meta: { nextStep }, type, code }` (the API
 * reference's "Errors" introduction and PaystackOSS/openapi `components/schemas/Error`). Clients
 * are meant to act on `type` and `code`, never on the message, so every refusal carries both, and
 * only codes Paystack documents: `duplicate_reference`, `invalid_params`, `missing_params`,
 * `not_found`, `transaction_not_found`, `invalid_transfer_recipient`, `unknown`.
 */
export type ErrorType = 'validation_error' | 'processor_error' | 'api_error';

export interface ErrorDetails {
  type: ErrorType;
  code: string;
  nextStep: string;
}

/**
 * An error that maps one-to-one onto a Paystack error response with the given HTTP status.
 * Services throw these; the app-wide error handler turns them into the wire envelope, so route
 * handlers never build error bodies by hand.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details: ErrorDetails = defaultDetails(statusCode),
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const NEXT_STEP = {
  invalid: "Ensure that the value(s) you're passing are valid.",
  missing: 'Provide all required params',
  notFound: "Ensure that you're passing the correct reference for the requested resource that exists on this integration",
  later: 'Try again later',
} as const;

/** What Paystack answers by status when nothing more specific applies. */
export function defaultDetails(statusCode: number): ErrorDetails {
  if (statusCode === 404) return { type: 'validation_error', code: 'not_found', nextStep: NEXT_STEP.notFound };
  // A busy or rate-limiting provider says nothing about the request itself.
  if (statusCode === 409 || statusCode === 429) return { type: 'api_error', code: 'unknown', nextStep: NEXT_STEP.later };
  if (statusCode >= 400 && statusCode < 500) return { type: 'validation_error', code: 'invalid_params', nextStep: NEXT_STEP.invalid };
  return { type: 'api_error', code: 'unknown', nextStep: NEXT_STEP.later };
}

/** 400 — a value is wrong, or the object's current state forbids the action. */
export function badRequest(message: string): ApiError {
  return new ApiError(400, message);
}

/** 400 — a required field is missing. */
export function missingParams(message: string): ApiError {
  return new ApiError(400, message, { type: 'validation_error', code: 'missing_params', nextStep: NEXT_STEP.missing });
}

/** 404 — the object named in the URL does not exist for this account. */
export function notFound(message: string): ApiError {
  return new ApiError(404, message);
}

/** 400 `not_found` — where Paystack answers an unknown reference in the body with a 400 (preauthorizations). */
export function unknownReference(message: string): ApiError {
  return new ApiError(400, message, { type: 'validation_error', code: 'not_found', nextStep: NEXT_STEP.notFound });
}

/** 400 `duplicate_reference` — the reference names an object already (Paystack refuses any reuse). */
export function duplicateReference(message: string, nextStep = 'Try and create the Transaction or Charge with a new reference'): ApiError {
  return new ApiError(400, message, { type: 'validation_error', code: 'duplicate_reference', nextStep });
}

/** 400 `invalid_transfer_recipient` — as the API reference's Initiate Transfer sample answers. */
export function invalidRecipient(): ApiError {
  return new ApiError(400, 'Recipient specified is invalid', {
    type: 'validation_error',
    code: 'invalid_transfer_recipient',
    nextStep: 'Provide a valid recipient. Ensure you are passing the recipient code in the recipient param',
  });
}

/**
 * 422 — Resolve Account Number (`GET /bank/resolve`) found no account for the number at the bank.
 * Paystack's published material documents only the success answer; the status and message are
 * what Paystack answers (and client libraries test for: a 422 with `status: false`). The type and
 * code are the generic ones for a request Paystack refuses (`invalid_params`): act on the status.
 */
export function unresolvableAccount(): ApiError {
  return new ApiError(422, 'Could not resolve account name. Check parameters or try again.', {
    type: 'validation_error',
    code: 'invalid_params',
    nextStep: 'Ensure that the account number and bank code are correct; list bank codes with GET /bank',
  });
}

/** 400 from the processor (the issuer refused): `processor_error`, not a fault in the request. */
export function processorRefusal(message: string): ApiError {
  return new ApiError(400, message, { type: 'processor_error', code: 'unknown', nextStep: NEXT_STEP.later });
}

/**
 * 400 — the transaction is refunded in full already ("Transaction has been fully reversed",
 * PaystackOSS/openapi errors/api-errors.json). Paystack documents the message, not a code; the
 * simulator gives it `transaction_reversed` so that clients can tell it apart without the text.
 */
export function fullyReversed(): ApiError {
  return new ApiError(400, 'Transaction has been fully reversed', {
    type: 'validation_error',
    code: 'transaction_reversed',
    nextStep: 'The customer has been refunded for this transaction fully; nothing is left to refund',
  });
}
