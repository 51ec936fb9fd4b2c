import { Logger } from '@nestjs/common';
import { Amount } from '@gateway/platform';
import { PaystackHttpProvider } from '../paystack/paystack-http.provider';

/**
 * Shared by the adapter's contract specs, which start the provider simulator themselves (only
 * `*.spec.ts` files may import it). Distinct secrets per mode: the simulator keeps one account per
 * secret, like test and live on the real provider.
 */
export const TEST_SECRET = 'sk_test_adapter_contract';
export const LIVE_SECRET = 'sk_live_adapter_contract';

export function adapterFor(baseUrl: string, timeoutMs = 5_000, liveBaseUrl = baseUrl): PaystackHttpProvider {
  return new PaystackHttpProvider({
    accounts: { test: { baseUrl, secretKey: TEST_SECRET }, live: { baseUrl: liveBaseUrl, secretKey: LIVE_SECRET } },
    timeoutMs,
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
  return `${prefix}_${process.pid}_${Date.now()}_${counter}`;
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
