import type { Mode } from '@gateway/contracts';
import type { Currency } from '@gateway/platform';
import type {
  CaptureAuthorizationInput,
  InitializedTransaction,
  InitializeHoldCheckoutInput,
  ProviderHold,
  ProviderHoldRelease,
  ReserveAuthorizationInput,
} from '../provider.types';
import { ProviderRejectedError } from '../provider-rejected.error';
import type { PaystackHttpClient } from './paystack-http-client';
import { holdAuthorizationCode, toCapturedHold, toHoldRelease, toProviderHold } from './paystack.mapper';
import { asObject, requiredString, toWireMinor } from './paystack-wire';

/**
 * Card preauthorization (holds), at the paths of Paystack's API reference "Card Preauthorization"
 * (PaystackOSS/doc-code-snippets `dist/api/preauthorization/*`): reserve_authorization, capture,
 * release, GET /:reference. Each documents 200 and 400 only: any other 4xx (a 404 from a path
 * the provider does not have) is a `provider_error`, never a refusal — so a release the provider
 * did not make is never taken for one.
 */
const DOCUMENTED_REFUSALS = [400] as const;

/**
 * Places a hold. Paystack answers a reservation the issuer refuses with a 400 ("Preauthorization
 * unsuccessful"); that is an issuer decline — a hold with status `failed` — unless the error's
 * `type` is `validation_error` (our request was wrong: an unknown authorization, a reused
 * reference), which stays a `ProviderRejectedError`. A reused reference is Paystack's
 * `duplicate_reference`, also for our own retry after a timeout: the hold under the reference is
 * then read back, and answered when it is this very hold (same card, amount and currency).
 */
export async function reserveHold(http: PaystackHttpClient, mode: Mode, input: ReserveAuthorizationInput): Promise<ProviderHold> {
  try {
    const data = await http.send(mode, {
      operation: 'preauthorization.reserve',
      method: 'POST',
      path: '/preauthorization/reserve_authorization',
      body: {
        reference: input.reference,
        authorization_code: input.authorizationCode,
        email: input.email,
        amount: toWireMinor(input.amount),
        currency: input.currency,
      },
      refusals: DOCUMENTED_REFUSALS,
    });
    return toProviderHold(data);
  } catch (error) {
    if (!(error instanceof ProviderRejectedError)) throw error;
    if (error.isDuplicateReference) return sameHoldOrThrow(http, mode, input, error);
    if (error.providerType === 'validation_error') throw error;
    return {
      reference: input.reference,
      status: 'failed',
      amount: input.amount,
      reservedAmount: input.amount,
      currency: input.currency,
      fee: null,
      gatewayResponse: error.providerMessage,
    };
  }
}

/**
 * The simulator's authorize-only checkout (`POST /preauthorization/initialize`, answered like
 * Initialize Transaction). Paystack has no such path: it would answer 404, a `provider_error` —
 * never a charge — and the capability `hold_checkouts` keeps the gateway from asking it at all.
 * The same request again answers the checkout already opened, so a retry after a timeout is safe.
 */
export async function initializeHoldCheckout(http: PaystackHttpClient, mode: Mode, input: InitializeHoldCheckoutInput): Promise<InitializedTransaction> {
  const data = asObject(
    await http.send(mode, {
      operation: 'preauthorization.initialize',
      method: 'POST',
      path: '/preauthorization/initialize',
      body: { reference: input.reference, email: input.email, amount: toWireMinor(input.amount), currency: input.currency },
      refusals: DOCUMENTED_REFUSALS,
    }),
    'initialize',
  );
  return { authorizationUrl: requiredString(data, 'authorization_url'), accessCode: requiredString(data, 'access_code') };
}

/** Capture Preauthorization: answers the capture's transaction. */
export async function captureHold(http: PaystackHttpClient, mode: Mode, input: CaptureAuthorizationInput): Promise<ProviderHold> {
  const data = await http.send(mode, {
    operation: 'preauthorization.capture',
    method: 'POST',
    path: '/preauthorization/capture',
    body: {
      reference: input.reference,
      ...(input.currency !== undefined && { currency: input.currency }),
      ...(input.amount !== undefined && { amount: toWireMinor(input.amount) }),
    },
    refusals: DOCUMENTED_REFUSALS,
  });
  return toCapturedHold(data);
}

/** Release Preauthorization: answers `{ status: "released", reference }`; anything else is not a release. */
export async function releaseHold(http: PaystackHttpClient, mode: Mode, reference: string, currency?: Currency): Promise<ProviderHoldRelease> {
  const data = await http.send(mode, {
    operation: 'preauthorization.release',
    method: 'POST',
    path: '/preauthorization/release',
    body: { reference, ...(currency !== undefined && { currency }) },
    refusals: DOCUMENTED_REFUSALS,
  });
  return toHoldRelease(data);
}

/** Verify Preauthorization; null when Paystack does not know the reference (its 400 `not_found`). */
export async function verifyHold(http: PaystackHttpClient, mode: Mode, reference: string): Promise<ProviderHold | null> {
  const data = await fetchHold(http, mode, reference);
  return data === null ? null : toProviderHold(data);
}

function fetchHold(http: PaystackHttpClient, mode: Mode, reference: string): Promise<unknown | null> {
  return http.sendOrNull(mode, {
    operation: 'preauthorization.verify',
    method: 'GET',
    path: `/preauthorization/${encodeURIComponent(reference)}`,
    refusals: DOCUMENTED_REFUSALS,
  });
}

/** The hold already under the reference when it is this one (same card, amount, currency); else the refusal stands. */
async function sameHoldOrThrow(
  http: PaystackHttpClient,
  mode: Mode,
  input: ReserveAuthorizationInput,
  refusal: ProviderRejectedError,
): Promise<ProviderHold> {
  const data = await fetchHold(http, mode, input.reference);
  if (data === null) throw refusal;
  const earlier = toProviderHold(data);
  const card = holdAuthorizationCode(data);
  const same =
    earlier.status !== 'failed' &&
    (earlier.reservedAmount ?? earlier.amount).equals(input.amount) &&
    earlier.currency === input.currency &&
    (card === null || card === input.authorizationCode);
  if (!same) throw refusal;
  return earlier;
}
