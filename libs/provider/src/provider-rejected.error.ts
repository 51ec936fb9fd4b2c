import { DomainError } from '@gateway/platform';

/**
 * The provider understood the request and refused it with a 4xx and a message (an unknown
 * authorization, a refund above what is left, a reused reference with another payload, …).
 * A `DomainError('provider_error')` so that, unhandled, it still renders as a 502; domain code
 * that expects a refusal catches it and answers with its own code.
 */
export class ProviderRejectedError extends DomainError {
  override readonly name = 'ProviderRejectedError';
  /** Paystack's error `code` (`duplicate_reference`, `not_found`, `invalid_params`, …): act on this, never on the message. */
  readonly providerCode: string | null;
  /** Paystack's error `type`: `validation_error` (our request), `processor_error` (the processor or issuer), `api_error`. */
  readonly providerType: string | null;
  /** Paystack's `meta.nextStep`, for logs. */
  readonly nextStep: string | null;

  constructor(
    /** The provider's HTTP status (400, 404, 422, …). */
    readonly providerStatus: number,
    /** The provider's own explanation, e.g. "Invalid authorization code", for people; never matched on. */
    readonly providerMessage: string,
    details: { code?: string; type?: string; nextStep?: string } = {},
  ) {
    super('provider_error', `The payment provider refused the request: ${providerMessage}`);
    this.providerCode = details.code ?? null;
    this.providerType = details.type ?? null;
    this.nextStep = details.nextStep ?? null;
  }

  /** The provider does not know the object the request named (a 404, or Paystack's `not_found` code). */
  get isNotFound(): boolean {
    return this.providerStatus === 404 || this.providerCode === 'not_found' || this.providerCode === 'transaction_not_found';
  }

  /** The reference names an object already (Paystack's `duplicate_reference`). */
  get isDuplicateReference(): boolean {
    return this.providerCode === 'duplicate_reference';
  }
}
