import { DomainError } from '@gateway/platform';

/** 429 `rate_limit_exceeded`; the error filter adds `retry_after` to the envelope. */
export class RateLimitExceededError extends DomainError {
  constructor(
    message: string,
    /** Whole seconds (≥ 1) after which the request may be retried; also sent as Retry-After. */
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limit_exceeded', message);
    this.name = 'RateLimitExceededError';
  }
}
