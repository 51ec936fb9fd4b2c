import { defaultDetails, type ErrorDetails, type ErrorType } from '../errors';

/**
 * Paystack's response envelope. Every JSON answer — success or error — has this shape, so
 * clients can always read `status` and `message`; errors add `meta.nextStep`, `type` and `code`.
 */
export interface Envelope<T> {
  status: boolean;
  message: string;
  data?: T;
}

export interface ErrorEnvelope {
  status: false;
  message: string;
  meta?: { nextStep: string };
  type?: ErrorType;
  code?: string;
}

export function ok<T>(message: string, data: T): Envelope<T> {
  return { status: true, message, data };
}

/**
 * An error body for `statusCode`. A 401 is exactly `{status: false, message}`, as the API
 * reference documents it (`components/responses/Unauthorized`); every other error carries
 * `meta`, `type` and `code`, by default those Paystack uses for the status.
 */
export function failure(message: string, statusCode: number, details: ErrorDetails = defaultDetails(statusCode)): ErrorEnvelope {
  if (statusCode === 401) return { status: false, message };
  return { status: false, message, meta: { nextStep: details.nextStep }, type: details.type, code: details.code };
}
