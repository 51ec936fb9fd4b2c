import { DomainError } from '@gateway/platform';

/**
 * The provider understood the request and refused it with a 4xx and a message (an unknown
 * authorization, a refund above what is left, a reused reference with another payload, …).
 * A `DomainError('provider_error')` so that, unhandled, it still renders as a 502; domain code
 * that expects a refusal catches it and answers with its own code.
 */
export class ProviderRejectedError extends DomainError {
  override readonly name = 'ProviderRejectedError';

  constructor(
    /** The provider's HTTP status (400, 404, 422, …). */
    readonly providerStatus: number,
    /** The provider's own explanation, e.g. "Invalid authorization code". */
    readonly providerMessage: string,
  ) {
    super('provider_error', `The payment provider refused the request: ${providerMessage}`);
  }

  /** The provider does not know the object the request named. */
  get isNotFound(): boolean {
    return this.providerStatus === 404;
  }
}
