import { ProviderRejectedError } from '@gateway/provider';

/**
 * Whether the provider definitely refused the request, so nothing happened there and the refusal
 * can be recorded as final. A timeout or a 5xx may have been processed; a 409 (a request under the
 * same idempotency key still running at the provider) or 429 (rate limited) says nothing about
 * the outcome — those are left to be retried.
 */
export function isProviderRefusal(error: unknown): error is ProviderRejectedError {
  return error instanceof ProviderRejectedError && error.providerStatus !== 409 && error.providerStatus !== 429;
}
