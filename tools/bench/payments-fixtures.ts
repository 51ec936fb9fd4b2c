import { createApiApp } from '@gateway/api';
import { ApiKeysService } from '@gateway/domain/api-keys';
import { CustomersService } from '@gateway/domain/customers';
import { DevelopersService } from '@gateway/domain/developers';
import { loadConfig } from '@gateway/platform';
import type { ProviderSimulator } from '@gateway/provider-sim';
import type { Client } from 'pg';

/** What the payment benchmarks set up before they measure: merchants, their wallets, pending payments. */

export interface Merchant {
  developerId: string;
  customerId: string;
  customerReference: string;
  email: string;
  key: string;
}

/** `count` merchants, each with a test secret key (`scopes`) and one customer, through the real domain services. */
export async function provisionMerchants(env: Record<string, string>, count: number, scopes = ['payments:read', 'payments:write']): Promise<Merchant[]> {
  const app = await createApiApp({ config: loadConfig(env), databaseUrl: env.DATABASE_URL, logger: false });
  try {
    const developers = app.get(DevelopersService, { strict: false });
    const keys = app.get(ApiKeysService, { strict: false });
    const customers = app.get(CustomersService, { strict: false });
    const merchants: Merchant[] = [];
    for (let i = 0; i < count; i++) {
      const developer = await developers.create({ email: `bench-${i}@example.com`, name: `Bench ${i}`, emailVerified: true });
      const { secret } = await keys.issue({ developerId: developer.id, mode: 'test', kind: 'secret', scopes });
      const email = `buyer-${i}@example.com`;
      const customer = await customers.create({ developerId: developer.id, mode: 'test' }, { email });
      merchants.push({ developerId: developer.id, customerId: customer.id, customerReference: customer.reference, email, key: secret });
    }
    return merchants;
  } finally {
    await app.close();
  }
}

/** Every merchant's NGN wallet exists before the runs, as it does for any merchant past its first payment. */
export async function createWallets(db: Client, merchants: Merchant[]): Promise<void> {
  await db.query(
    `WITH w AS (INSERT INTO wallets (developer_id, mode, currency) SELECT unnest($1::uuid[]), 'test', 'NGN' RETURNING id)
     INSERT INTO wallet_balance_slots (wallet_id, slot) SELECT w.id, s FROM w, generate_series(0, 15) AS s`,
    [merchants.map((m) => m.developerId)],
  );
}

export interface PreparedPayment {
  reference: string;
  developerId: string;
}

/**
 * Pending NGN payments of `amount` as initialize leaves them, round-robin over `merchants`,
 * referenced `<prefix><n>` (n from 1, for pgbench's sequence; none returned) or `PAY-<prefix><random>`.
 */
export async function preparePayments(db: Client, prefix: string, merchants: Merchant[], count: number, numbered = false, amount = '5000.00'): Promise<PreparedPayment[]> {
  // `PAY-…` like the gateway's own: the provider (and its simulator) refuses `_` in a reference.
  const reference = numbered ? `$2 || g` : `'PAY-' || $2 || substr(md5(random()::text || g), 1, 17)`;
  const { rows } = await db.query(
    `INSERT INTO payments (developer_id, mode, reference, status, customer_id, customer_reference, email, amount, currency, amount_refunded,
       metadata, splits, provider_access_code, provider_authorization_url, created_at, updated_at)
     SELECT m.developer_id, 'test', ${reference}, 'pending', m.customer_id, m.customer_reference, m.email, $3::numeric, 'NGN', 0,
       '{"order":"bench"}', '[]', 'ACCESS_bench', 'http://127.0.0.1/checkout/bench', now(), now()
     FROM generate_series(1, $1::int) AS g
     JOIN unnest($4::uuid[], $5::uuid[], $6::text[], $7::text[]) WITH ORDINALITY AS m (developer_id, customer_id, customer_reference, email, n)
       ON m.n = (g - 1) % $8::int + 1
     ORDER BY g
     RETURNING reference, developer_id`,
    [
      count,
      numbered ? prefix : prefix.slice(0, 3),
      amount,
      merchants.map((m) => m.developerId),
      merchants.map((m) => m.customerId),
      merchants.map((m) => m.customerReference),
      merchants.map((m) => m.email),
      merchants.length,
    ],
  );
  return numbered ? [] : (rows as Array<{ reference: string; developer_id: string }>).map((r) => ({ reference: r.reference, developerId: r.developer_id }));
}

/** Each payment's transaction exists at the simulator and the customer has paid it (no callback): ready for a verify. */
export async function payAtSimulator(sim: ProviderSimulator, secret: string, payments: PreparedPayment[], amount = '5000.00'): Promise<void> {
  const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
  const minor = Number(amount.replace('.', ''));
  for (const p of payments) {
    const init = await sim.app.inject({ method: 'POST', url: '/transaction/initialize', headers, payload: { reference: p.reference, email: 'buyer@example.com', amount: minor, currency: 'NGN' } });
    if (init.statusCode !== 200) throw new Error(`simulator initialize: ${init.statusCode} ${init.body}`);
    const paid = await sim.app.inject({ method: 'POST', url: `/sim/transactions/${p.reference}/complete`, headers, payload: {} });
    if (paid.statusCode !== 200) throw new Error(`simulator complete: ${paid.statusCode} ${paid.body}`);
  }
}
