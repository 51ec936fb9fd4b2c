import Fastify from 'fastify';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { Pool, type PoolClient } from 'pg';
import { INITIALIZE_SQL } from './initialize-sql';
import { GET_PAYMENT_SQL, positional, VERIFY_READ_SQL, VERIFY_TRANSACTION_SQL } from './verify-sql';

/**
 * The bare baseline, run as its own process: plain Fastify + node-postgres Pool, no Nest, no
 * TypeORM, no auth, no logging. The same GET-by-reference SELECT; for initialize, the statements
 * the gateway runs there (baseline/initialize-sql.ts); for verify, the same read and the same SQL
 * transaction the gateway runs on a successful verify (baseline/verify-sql.ts) — but no provider
 * round trip. The tenant comes in `x-developer-id` (test mode).
 *
 *   DATABASE_URL=… [POOL_SIZE=10] node -r @swc-node/register tools/bench/baseline/bare-payments-server.ts   → prints READY <port>
 */
const PLATFORM_FEE_MINOR = 1000n; // the gateway's default NGN platform fee, 10.00
const SLOT_COUNT = 16;
const SUCCESS_STATEMENTS = ['saveAuthorization', 'succeed', 'postCredit', 'emitEvent'] as const;
const prepared = Object.fromEntries(
  [
    ['get', GET_PAYMENT_SQL],
    ['read', VERIFY_READ_SQL],
    ...SUCCESS_STATEMENTS.map((name) => [name, VERIFY_TRANSACTION_SQL[name]]),
    ...Object.entries(INITIALIZE_SQL),
  ].map(([name, sql]) => [name, { name: `bare.${name}`, ...positional(sql) }]),
) as Record<'get' | 'read' | (typeof SUCCESS_STATEMENTS)[number] | keyof typeof INITIALIZE_SQL, { name: string; text: string; names: string[] }>;

type Row = Record<string, unknown>;

async function run(client: Pool | PoolClient, name: keyof typeof prepared, values: Record<string, unknown>): Promise<Row[]> {
  // Named, as the gateway's hot statements are: parsed once per connection.
  const statement = prepared[name];
  return (await client.query({ name: statement.name, text: statement.text, values: statement.names.map((n) => values[n]) })).rows as Row[];
}

async function main(): Promise<void> {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
  const app = Fastify({ logger: false });

  app.get<{ Params: { reference: string } }>('/payments/:reference', async (request, reply) => {
    const [row] = await run(pool, 'get', { reference: request.params.reference, developer_id: request.headers['x-developer-id'], mode: 'test' });
    if (!row) return reply.code(404).send({ status: false, code: 'payment_not_found' });
    return { status: true, data: toResponse(row) };
  });

  app.post<{ Body: { amount: number; email: string; callback_url?: string } }>('/payments/initialize', async (request, reply) => {
    const tenant = { developer_id: request.headers['x-developer-id'] as string, mode: 'test' };
    const payment = await initialize(pool, tenant, request.body);
    return reply.code(201).send({ status: true, data: { reference: payment.reference, authorization_url: `http://localhost:3000/checkout/${payment.reference as string}`, status: payment.status } });
  });

  app.post<{ Body: { reference: string } }>('/payments/verify', async (request, reply) => {
    const tenant = { developer_id: request.headers['x-developer-id'] as string, mode: 'test' };
    const [payment] = await run(pool, 'read', { reference: request.body.reference, ...tenant });
    if (!payment) return reply.code(404).send({ status: false, code: 'payment_not_found' });
    if (payment.status === 'success') return { status: true, data: toResponse(payment) };
    return { status: true, data: toResponse(await credit(pool, payment, tenant)) };
  });

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(`READY ${new URL(address).port}\n`);
  process.once('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
}

/** What the gateway's initialize does in the database, for a new or a returning customer (no provider call). */
async function initialize(pool: Pool, tenant: { developer_id: string; mode: string }, body: { amount: number; email: string; callback_url?: string }): Promise<Row> {
  const now = new Date();
  const values: Record<string, unknown> = {
    ...tenant,
    now,
    email: body.email.trim(),
    customer_reference: `CUS_${randomBytes(8).toString('hex')}`,
    reference: `PAY-${randomBytes(10).toString('hex')}`,
    // The JSON number's own text: numeric takes it as it is, no float arithmetic.
    amount: String(body.amount),
    currency: 'NGN',
    callback_url: body.callback_url ?? null,
    request_hash: createHash('sha256').update(JSON.stringify(body)).digest('hex'),
  };
  await run(pool, 'testClock', values);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const [customer] = await run(client, 'findOrInsertCustomer', values);
    if (customer.created) {
      const event = { ...values, event_id: `evt_${randomBytes(12).toString('hex')}`, event_name: 'customer.created', event_data: JSON.stringify(customer) };
      await run(client, 'emitEvent', event);
    }
    values.customer_id = customer.id;
    values.customer_reference = customer.reference;
    const [inserted] = await run(client, 'insertPayment', values);
    values.payment_id = inserted.id;
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  const [view] = await run(pool, 'recordCheckout', { ...values, access_code: `ACCESS_${randomBytes(8).toString('hex')}`, provider_url: `http://127.0.0.1/checkout/${values.reference as string}` });
  return view;
}

/** What the gateway's success transaction does, with the values it would compute. */
async function credit(pool: Pool, payment: Row, tenant: { developer_id: string; mode: string }): Promise<Row> {
  const amount = minor(payment.amount as string);
  const platformFee = payment.fee_override === null ? PLATFORM_FEE_MINOR : minor(payment.fee_override as string);
  const providerFee = (amount * 15n) / 1000n + 10000n > 200000n ? 200000n : (amount * 15n) / 1000n + 10000n;
  const net = amount - platformFee - providerFee;
  const now = new Date();
  const values: Record<string, unknown> = {
    ...tenant,
    now,
    payment_id: payment.id,
    customer_id: payment.customer_id,
    email: payment.email,
    currency: payment.currency,
    reference: payment.reference,
    authorization_code: `AUTH_${randomBytes(10).toString('hex')}`,
    provider_authorization_code: `AUTH_${randomBytes(5).toString('hex')}`,
    provider_signature: `SIG_${randomBytes(6).toString('hex')}`,
    reusable: true,
    brand: 'visa',
    last4: '4081',
    exp_month: '12',
    exp_year: '2030',
    bank: 'TEST BANK',
    channel: 'card',
    platform_fee: decimal(platformFee),
    provider_fee: decimal(providerFee),
    net_amount: decimal(net),
    splits: '[]',
    gateway_response: 'Approved',
    paid_at: now,
    provider_transaction_id: String(randomInt(1e9)),
    source_type: 'payment',
    source_id: payment.id,
    kind: 'success',
    start_slot: randomInt(SLOT_COUNT),
    slot_count: SLOT_COUNT,
    available: decimal(net),
    pending: '0',
    reserved: '0',
    accounts: ['provider_clearing', 'wallet', 'wallet', 'platform_fees', 'wallet', 'provider_fees'],
    buckets: [null, 'available', 'available', null, 'available', null],
    entry_types: ['credit', 'credit', 'fee', 'fee', 'fee', 'fee'],
    amounts: [-amount, amount, -platformFee, platformFee, -providerFee, providerFee].map(decimal),
    descriptions: ['Payment received', 'Payment received', 'Platform fee', 'Platform fee', 'Provider fee', 'Provider fee'],
    event_id: `evt_${randomBytes(12).toString('hex')}`,
    event_name: 'payment.success',
  };
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const [authorization] = await run(client, 'saveAuthorization', values);
    values.authorization_id = authorization.id;
    const [updated] = await run(client, 'succeed', values);
    if (updated) {
      const [posted] = await run(client, 'postCredit', values);
      if (!posted.posting_id || posted.slot === null) throw new Error('bare: the posting was not applied');
      values.event_data = JSON.stringify(toResponse({ ...updated, ...authorizationColumns(authorization) }));
      await run(client, 'emitEvent', values);
    }
    await client.query('COMMIT');
    return { ...(updated ?? payment), ...authorizationColumns(authorization) };
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

function authorizationColumns(a: Row): Row {
  return { a_code: a.code, a_reusable: a.reusable, a_brand: a.brand, a_last4: a.last4, a_exp_month: a.exp_month, a_exp_year: a.exp_year, a_bank: a.bank };
}

/** The payment as the API shows it (same fields; amounts as numbers). */
function toResponse(p: Row): Row {
  const money = (v: unknown) => (v === null ? null : Number(v));
  return {
    reference: p.reference,
    status: p.status,
    amount: money(p.amount),
    currency: p.currency,
    net_amount: money(p.net_amount),
    fees: p.platform_fee !== null && p.provider_fee !== null ? { platform: money(p.platform_fee), provider: money(p.provider_fee) } : null,
    amount_refunded: money(p.amount_refunded),
    email: p.email,
    customer_reference: p.customer_reference,
    authorization_url: p.status === 'pending' && p.provider_authorization_url ? `http://localhost:3000/checkout/${p.reference as string}` : null,
    callback_url: p.callback_url,
    metadata: p.metadata,
    splits: p.splits,
    authorization: p.a_code ? { authorization_code: p.a_code, reusable: p.a_reusable, brand: p.a_brand, last4: p.a_last4, exp_month: p.a_exp_month, exp_year: p.a_exp_year, bank: p.a_bank } : null,
    gateway_response: p.gateway_response,
    channel: p.channel,
    charge_at: (p.charge_at as Date | null)?.toISOString() ?? null,
    paid_at: (p.paid_at as Date | null)?.toISOString() ?? null,
    created_at: (p.created_at as Date).toISOString(),
  };
}

function minor(value: string): bigint {
  const [whole, fraction = ''] = value.split('.');
  const sign = whole.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(whole.replace('-', '')) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2)));
}

function decimal(value: bigint): string {
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

void main().catch((error: unknown) => {
  process.stderr.write(`bare server failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
