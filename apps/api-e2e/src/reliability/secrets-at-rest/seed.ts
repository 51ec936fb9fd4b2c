import { authenticator } from 'otplib';
import { randomBytes, randomInt } from 'node:crypto';
import { Client } from 'pg';
import { http, type HttpResult } from '../../support/http';
import { createMerchant } from '../../support/merchants';
import { buyer, customerWithSavedCard, type PaymentsHarness } from '../../support/payments';
import { PORTAL_PASSWORD, provisionAccount, signedInPlatformUser } from '../../support/portal-client';
import { waitFor } from '../../support/wait';
import { luhnValid, TEST_CARD_NUMBERS } from './patterns';

/** A public address literal: registration accepts it without a DNS lookup; no scheduler runs here, so nothing connects to it. */
const RECEIVER = 'https://93.184.215.14/hooks';

/** A card number of no test list: Luhn-valid, Visa-like (the rule the scan uses), random. */
export function cardNumber(): string {
  for (;;) {
    const body = `4${Array.from({ length: 14 }, () => randomInt(10)).join('')}`;
    const check = [...Array(10).keys()].map((d) => `${body}${d}`).find(luhnValid) as string;
    if (!TEST_CARD_NUMBERS.has(check)) return check;
  }
}

/** What the preamble pushed, for the scan to look for by value as well as by pattern. */
export interface Seeded {
  known: string[];
  /** Requests made, so the test can tell the seed ran. */
  requests: number;
}

/**
 * Pushes secrets through every path a merchant or a person can, on `h`'s database:
 * - a secret key in the Authorization header of every request, in the query string and in the URL path;
 * - a card number under a sensitive key (`card_number`) and under an ordinary one (`card`), outside
 *   metadata, on a refused request, and a key under an ordinary field;
 * - a documented test card in a customer's metadata (the merchant's, kept as sent);
 * - a card paid at the provider's checkout and saved (the gateway keeps brand and last 4 only);
 * - a webhook endpoint created with an Idempotency-Key (the stored answer holds its signing
 *   secret) and its secret rotated;
 * - a portal API key, a TOTP enrolment confirmed with a code, the portal password at sign-in.
 * Then waits until the request log has written every entry.
 */
export async function pushSecrets(h: PaymentsHarness): Promise<Seeded> {
  const known: string[] = [h.secrets.test, h.secrets.live, PORTAL_PASSWORD];
  const answers: HttpResult[] = [];
  const api = async (method: string, path: string, options: Parameters<typeof http>[3]) => {
    const answer = await http(h.gateway.baseUrl, method, path, options);
    answers.push(answer);
    return answer;
  };

  const merchant = await createMerchant(h.gateway);
  const live = await merchant.issueKey({ mode: 'live' });
  const strangerKey = `sk_test_${randomBytes(24).toString('hex')}`;
  known.push(merchant.key, live.key, strangerKey);
  await api('GET', '/api/v1/customers', { token: live.key });
  await api('GET', `/api/v1/customers?api_key=${strangerKey}`, { token: strangerKey });
  await api('GET', `/api/v1/customers/${merchant.key}`, { token: merchant.key });

  await api('POST', '/api/v1/payments/initialize', { token: merchant.key, body: { amount: 5000, email: buyer(), card_number: cardNumber(), cvv: '123' } });
  await api('POST', '/api/v1/payments/initialize', { token: merchant.key, body: { amount: 5000, email: buyer(), card: cardNumber() } });
  await api('POST', '/api/v1/customers', { token: merchant.key, body: { email: buyer(), note: `our key is ${merchant.key}` } });
  const testCard = [...TEST_CARD_NUMBERS][0];
  const customer = await api('POST', '/api/v1/customers', { token: merchant.key, body: { email: buyer(), metadata: { card_number: testCard, card_on_file: testCard } } });
  if (customer.status !== 201) throw new Error(`customer with metadata: ${customer.status} ${customer.text}`);
  await customerWithSavedCard(h, testCard, merchant);

  const hook = await api('POST', '/api/v1/webhooks', {
    token: merchant.key,
    body: { url: RECEIVER, events: ['payment.success'], webhook_version: 'v2' },
    headers: { 'idempotency-key': `seed-${randomBytes(6).toString('hex')}` },
  });
  if (hook.status !== 201) throw new Error(`webhook endpoint: ${hook.status} ${hook.text}`);
  const rotated = await api('PATCH', `/api/v1/webhooks/${hook.body.data.id}`, { token: merchant.key, body: { rotate_secret: true } });
  if (rotated.status !== 200) throw new Error(`rotate the signing secret: ${rotated.status} ${rotated.text}`);
  known.push(hook.body.data.secret, rotated.body.data.secret);

  const admin = await signedInPlatformUser(h.gateway);
  const account = await provisionAccount(h.gateway, admin.client);
  const portalKey = await account.owner.post('/api/portal/keys', { body: { name: 'seeded' } });
  if (portalKey.status !== 201) throw new Error(`portal key: ${portalKey.status} ${portalKey.text}`);
  known.push(portalKey.body.data.secret);
  const enrolled = await account.owner.post('/api/portal/me/totp/enroll');
  if (enrolled.status !== 200) throw new Error(`TOTP enrolment: ${enrolled.status} ${enrolled.text}`);
  const { secret, otpauth_url: otpauthUrl } = enrolled.body.data as { secret: string; otpauth_url: string };
  known.push(secret, otpauthUrl);
  const code = authenticator.clone({ epoch: h.gateway.clock.now().getTime() }).generate(secret);
  const confirmed = await account.owner.post('/api/portal/me/totp/confirm', { body: { code } });
  if (confirmed.status !== 200) throw new Error(`TOTP confirmation: ${confirmed.status} ${confirmed.text}`);

  // Entries are written in batches about a second apart: wait for the last one.
  const last = answers.at(-1)?.headers.get('x-request-id') as string;
  const client = new Client({ connectionString: h.databaseUrl });
  await client.connect();
  try {
    await waitFor(async () => ((await client.query('SELECT 1 FROM request_logs WHERE request_id = $1', [last])).rowCount ?? 0) > 0, { what: 'the request log to be written' });
  } finally {
    await client.end();
  }
  return { known, requests: answers.length };
}
