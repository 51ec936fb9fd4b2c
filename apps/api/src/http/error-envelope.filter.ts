import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { ERROR_HTTP_STATUS, type ErrorCode, type ErrorEnvelope } from '@gateway/contracts';
import { DomainError, InvalidAmountError, isDatabaseUnavailableError, isStatementCanceledError } from '@gateway/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IdempotentReplay } from './idempotency/idempotency.guard';
import { RateLimitExceededError } from './throttling/rate-limit-exceeded.error';

/** Thrown by HTTP-layer guards and hooks that need to add response headers (e.g. Retry-After). */
export interface RenderedError {
  status: number;
  body: ErrorEnvelope;
}

const STATUS_FALLBACK_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'validation_error',
  401: 'authentication_failed',
  403: 'insufficient_scope',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limit_exceeded',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

// Fixed wording where the framework's own message would describe internals.
const FALLBACK_MESSAGES: Partial<Record<number, string>> = {
  404: 'No such endpoint.',
  413: 'The request body exceeds the 1 MiB limit.',
  415: 'Request bodies must be JSON (Content-Type: application/json).',
};

const DATABASE_UNAVAILABLE_MESSAGE = 'The service is briefly unavailable; retry the request (with the same Idempotency-Key) in a few seconds.';
const STATEMENT_TIMEOUT_MESSAGE = 'The request took longer than the service allows and was stopped; retry it (with the same Idempotency-Key) in a few seconds.';

/**
 * Maps any error to the spec's envelope. Domain errors keep their code; everything unknown is
 * logged with the request id and answered as `internal_error` without internals.
 */
export function renderError(error: unknown, requestId: string, logger: Logger): RenderedError {
  if (error instanceof RateLimitExceededError) {
    const rendered = envelope(error.code, error.message);
    return { ...rendered, body: { ...rendered.body, retry_after: error.retryAfterSeconds } };
  }
  if (error instanceof DomainError) {
    return envelope(error.code, error.message, error.fieldErrors);
  }
  // Controllers read amounts with parseRequestAmount (which names the field); an amount error
  // that escapes elsewhere still concerns what the client sent, and is never a 500.
  if (error instanceof InvalidAmountError) {
    return envelope('validation_error', 'The amount is not valid.', { amount: [error.message] });
  }
  // A statement stopped by DATABASE_STATEMENT_TIMEOUT_MS (a wait behind a lock, a query gone
  // wrong): its transaction rolled back whole, so it is a 503 to retry, told apart in the log.
  if (isStatementCanceledError(error)) {
    logger.warn(`Statement cancelled for request ${requestId}: ${error instanceof Error ? error.message : String(error)}`);
    return envelope('service_unavailable', STATEMENT_TIMEOUT_MESSAGE);
  }
  // The database restarting or unreachable, or a transaction that kept colliding after its
  // retries (inTransaction): nothing was committed and the same request may succeed in a moment,
  // so a 503 the client can retry with the same Idempotency-Key — not a 500, which reads as a bug.
  if (isDatabaseUnavailableError(error)) {
    logger.warn(`Database unavailable for request ${requestId}: ${error instanceof Error ? error.message : String(error)}`);
    return envelope('service_unavailable', DATABASE_UNAVAILABLE_MESSAGE);
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const code = STATUS_FALLBACK_CODES[status];
    if (code) {
      const message = FALLBACK_MESSAGES[status] ?? httpMessage(error);
      return { status, body: body(code, message) };
    }
  }
  logger.error(`Unhandled error for request ${requestId}`, error instanceof Error ? error.stack : String(error));
  return envelope(
    'internal_error',
    `An unexpected error occurred. Quote request id ${requestId} when contacting support.`,
  );
}

function httpMessage(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  return typeof message === 'string' ? message : error.message;
}

function body(code: ErrorCode, message: string, errors?: Record<string, string[]>): ErrorEnvelope {
  return errors ? { success: false, code, message, errors } : { success: false, code, message };
}

function envelope(code: ErrorCode, message: string, errors?: Record<string, string[]>): RenderedError {
  return { status: ERROR_HTTP_STATUS[code], body: body(code, message, errors) };
}

@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    // Not an error: the idempotency guard's way out of the chain with the stored answer.
    if (error instanceof IdempotentReplay) return error.send(reply);
    const rendered = renderError(error, request.id, this.logger);
    // Sent as text: the success-envelope hook wraps object payloads only.
    void reply.status(rendered.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(rendered.body));
  }
}
