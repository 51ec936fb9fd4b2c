import { Logger } from '@nestjs/common';
import { Amount, CURRENCIES, type ProviderAccountConfig } from '@gateway/platform';
import { PaystackHttpProvider, type PaystackHttpProviderOptions } from '../paystack/paystack-http.provider';

/**
 * Shared by the adapter's contract specs, which start the provider simulator themselves (only
 * `*.spec.ts` files may import it). Distinct secrets per mode: the simulator keeps one account per
 * secret, like test and live on the real provider.
 */
export const TEST_SECRET = 'sk_test_adapter_contract';
export const LIVE_SECRET = 'sk_live_adapter_contract';

/** One mode's account on the simulator: its profile, every currency it serves. */
export function simulatorAccount(baseUrl: string, secretKey: string): ProviderAccountConfig {
  return { baseUrl, secretKey, profile: 'simulator', currencies: [...CURRENCIES] };
}

export function adapterFor(baseUrl: string, timeoutMs = 5_000, liveBaseUrl = baseUrl, options: Partial<PaystackHttpProviderOptions> = {}): PaystackHttpProvider {
  return new PaystackHttpProvider({
    accounts: { test: simulatorAccount(baseUrl, TEST_SECRET), live: simulatorAccount(liveBaseUrl, LIVE_SECRET) },
    timeoutMs,
    ...options,
  });
}

/** Keeps test output readable; specs that assert on log lines spy on Logger.prototype instead. */
export function silenceProviderLogs(): void {
  Logger.overrideLogger(false);
}

let counter = 0;
/** A reference no other test in the run uses. */
export function uniqueReference(prefix = 'ref'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${counter}`;
}

export const ngn = (major: string) => Amount.parse(major);

/** Reads the simulator's raw wire object, to prove what actually went over the wire. */
export async function rawVerify(baseUrl: string, secret: string, reference: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseUrl}/transaction/verify/${reference}`, { headers: { authorization: `Bearer ${secret}` } });
  const body = (await response.json()) as { data: Record<string, unknown> };
  return body.data;
}

/** Pays a hosted checkout with a specific test card, as the customer's browser would. */
export async function payCheckoutWithCard(authorizationUrl: string, card: string): Promise<number> {
  const response = await fetch(`${authorizationUrl}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card }).toString(),
    redirect: 'manual',
  });
  await response.text();
  return response.status;
}
