import type { ErrorCode } from './types.js';

/** Field name (dotted path for nested fields) → messages, as `validation_error` answers carry them. */
export type FieldErrors = Record<string, string[]>;

/**
 * The gateway answered with an error: its envelope `{ success: false, code, message, errors?, retry_after? }`.
 * Branch on `code` (stable, from the gateway's error catalog), never on `message` (for people).
 * `code` is `unexpected_response` when the answer was not the gateway's envelope (a proxy's error page).
 */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  readonly status: number;
  readonly code: ErrorCode | 'unexpected_response';
  readonly errors?: FieldErrors;
  /** Seconds to wait before retrying (`rate_limit_exceeded`). */
  readonly retryAfter?: number;
  /** The `X-Request-Id` of the answer: quote it when asking the operator about a failure. */
  readonly requestId?: string;

  constructor(init: { status: number; code: GatewayError['code']; message: string; errors?: FieldErrors; retryAfter?: number; requestId?: string }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.errors = init.errors;
    this.retryAfter = init.retryAfter;
    this.requestId = init.requestId;
  }

  /** Reads an error answer: `body` is what openapi-fetch parsed (the envelope, or text when it was not JSON). */
  static fromResponse(response: Response, body: unknown): GatewayError {
    const requestId = response.headers.get('x-request-id') ?? undefined;
    if (!isEnvelope(body)) {
      return new GatewayError({ status: response.status, code: 'unexpected_response', message: `HTTP ${response.status} without the gateway's error body`, requestId });
    }
    return new GatewayError({
      status: response.status,
      code: body.code as ErrorCode,
      message: body.message,
      errors: body.errors as FieldErrors | undefined,
      retryAfter: typeof body.retry_after === 'number' ? body.retry_after : retryAfterHeader(response),
      requestId,
    });
  }
}

/** True when `error` is a GatewayError, with that `code` when one is given (narrows `code`). */
export function isGatewayError<C extends GatewayError['code']>(error: unknown, code?: C): error is GatewayError & { code: C } {
  return error instanceof GatewayError && (code === undefined || error.code === code);
}

/** No answer from the gateway after every retry: the connection failed or each attempt timed out. `cause` says how. */
export class GatewayConnectionError extends Error {
  override readonly name = 'GatewayConnectionError';
}

export type WebhookSignatureFailure = 'missing_header' | 'malformed_header' | 'timestamp_outside_tolerance' | 'signature_mismatch' | 'invalid_payload';

/** A webhook request that is not a genuine, fresh delivery from the gateway: answer it 4xx and do not act on it. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
  constructor(
    readonly reason: WebhookSignatureFailure,
    message: string,
  ) {
    super(message);
  }
}

/** Retry-After in whole seconds, when the answer has one in that form (a 503 may carry it without `retry_after`). */
function retryAfterHeader(response: Response): number | undefined {
  const value = response.headers.get('retry-after')?.trim();
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}

function isEnvelope(body: unknown): body is { code: string; message: string; errors?: unknown; retry_after?: unknown } {
  const b = body as Record<string, unknown> | null;
  return typeof b === 'object' && b !== null && b.success === false && typeof b.code === 'string' && typeof b.message === 'string';
}
