import { assertLedgerInvariants } from '@gateway/domain/ledger/testing';
import { createTestDatabase } from '@gateway/platform/testing';
import { createProviderSimulator, type ProviderSimulator } from '@gateway/provider-sim';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { startGateway, type TestGateway } from './gateway';
import { http, type HttpResult } from './http';
import { createMerchant, type TestMerchant } from './merchants';
import { releaseTestDatabase } from './test-artifacts';

export interface PaymentsHarness {
  gateway: TestGateway;
  sim: ProviderSimulator;
  /** The simulator accounts' secrets, for driving it directly (`/sim/…` controls). */
  secrets: { test: string; live: string };
  /** The database the gateway (and any scheduler of this harness) works on. */
  databaseUrl: string;
  close(): Promise<void>;
}

/**
 * The gateway wired to its own provider simulator over real HTTP, both on loopback: the gateway's
 * adapter calls the simulator, and the simulator's signed callbacks reach the gateway.
 *
 * `ownDatabase`: a fresh database of this file's alone (dropped at close — or kept for the
 * secrets-at-rest scan, see test-artifacts.ts — its books checked first).
 * Files whose tests age rows for a scan, or run scans that pick up every account's rows, need one:
 * the schedulers other files start in parallel scan the shared database, with their own simulator.
 */
export async function startPaymentsHarness(env: Record<string, string> = {}, options: { ownDatabase?: boolean } = {}): Promise<PaymentsHarness> {
  const secrets = { test: `sk_test_sim_${randomBytes(6).toString('hex')}`, live: `sk_live_sim_${randomBytes(6).toString('hex')}` };
  const databaseUrl = options.ownDatabase ? await createTestDatabase('e2e_own') : (process.env.TEST_DATABASE_URL as string);
  const sim = createProviderSimulator({ secretKeys: [secrets.test, secrets.live], transferDelayMs: 0, hangMs: 5_000 });
  const simUrl = await sim.listen();
  const gateway = await startGateway({
    DATABASE_URL: databaseUrl,
    PROVIDER_TEST_BASE_URL: simUrl,
    PROVIDER_LIVE_BASE_URL: simUrl,
    PROVIDER_TEST_SECRET_KEY: secrets.test,
    PROVIDER_LIVE_SECRET_KEY: secrets.live,
    ...env,
  });
  sim.setWebhookUrl(`${gateway.baseUrl}/api/provider/webhooks`);
  return {
    gateway,
    sim,
    secrets,
    databaseUrl,
    close: async () => {
      await sim.idle();
      await gateway.close();
      await sim.close();
      if (options.ownDatabase) {
        await assertLedgerInvariants(databaseUrl);
        await releaseTestDatabase(databaseUrl);
      }
    },
  };
}

/** The environment a scheduler process needs to work with this harness's database and simulator. */
export function schedulerEnvFor(h: PaymentsHarness, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: h.databaseUrl,
    PROVIDER_TEST_BASE_URL: h.sim.url() as string,
    PROVIDER_LIVE_BASE_URL: h.sim.url() as string,
    PROVIDER_TEST_SECRET_KEY: h.secrets.test,
    PROVIDER_LIVE_SECRET_KEY: h.secrets.live,
    ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    ...extra,
  };
}

export async function initializePayment(
  gateway: TestGateway,
  merchant: Pick<TestMerchant, 'key'>,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  return http(gateway.baseUrl, 'POST', '/api/v1/payments/initialize', { token: merchant.key, body, headers });
}

/** Initializes a payment and pays it in the sandbox with `outcome`; returns the verified payment. */
export async function paidPayment(gateway: TestGateway, merchant: Pick<TestMerchant, 'key'>, body: Record<string, unknown>, outcome = 'success'): Promise<HttpResult> {
  const init = await initializePayment(gateway, merchant, body);
  if (init.status !== 201) throw new Error(`initialize failed: ${init.status} ${init.text}`);
  return http(gateway.baseUrl, 'POST', `/api/v1/sandbox/payments/${init.body.data.reference}/complete`, { token: merchant.key, body: { outcome } });
}

export const buyer = () => `buyer-${randomBytes(5).toString('hex')}@example.com`;

/** A merchant (a new one unless given) whose customer paid once with `card` (a documented test card), leaving a saved card. */
export async function customerWithSavedCard(
  h: PaymentsHarness,
  card = '4084084084084081',
  existing?: TestMerchant,
): Promise<{ merchant: TestMerchant; email: string; code: string }> {
  const merchant = existing ?? (await createMerchant(h.gateway));
  const email = buyer();
  const init = await initializePayment(h.gateway, merchant, { amount: 1000, email });
  await http(h.sim.url() as string, 'POST', `/sim/transactions/${init.body.data.reference}/complete`, { token: h.secrets.test, body: { card } });
  const verified = await http(h.gateway.baseUrl, 'POST', '/api/v1/payments/verify', { token: merchant.key, body: { reference: init.body.data.reference } });
  return { merchant, email, code: verified.body.data.authorization.authorization_code };
}

/** Whether the outbox holds events of this name for the object with this reference (how many). */
export async function eventsFor(h: PaymentsHarness, name: string, reference: string): Promise<number> {
  const rows: unknown[] = await h.gateway.app.get(DataSource).query(`SELECT 1 FROM events WHERE name = $1 AND data->>'reference' = $2`, [name, reference]);
  return rows.length;
}
