import Fastify from 'fastify';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { Pool, type PoolClient } from 'pg';
import { INSERT_WITH_CUSTOMER, SUCCEED_IN_ONE_STATEMENT } from '@gateway/domain/payments';
import { INITIALIZE_SQL } from './initialize-sql';
import { GET_PAYMENT_SQL, positional, VERIFY_READ_SQL } from './verify-sql';

/**
 * The bare baseline, run as its own process: plain Fastify + node-postgres Pool, no Nest, no
 * TypeORM, no auth, no logging. The same GET-by-reference SELECT; for initialize, the statements
 * the gateway runs there (baseline/initialize-sql.ts, and the gateway's own one statement that
 * writes the customer and the payment); for verify, the same read and the very statement the
 * gateway settles a success with (libs/domain/payments payment-success.statement.ts: imported,
 * which loads the Nest modules' definitions but runs nothing of Nest or TypeORM) — but no provider
 * round trip. The tenant comes in `x-developer-id` (test mode).
 *
 *   DATABASE_URL=… [POOL_SIZE=10] node -r @swc-node/register tools/bench/baseline/bare-payments-server.ts   → prints READY <port>
 */
const PLATFORM_FEE_MINOR = 1000n; // the gateway's default NGN platform fee, 10.00
const SLOT_COUNT = 16;
/** The analytics totals' rows per day (analytics-slot.ts). */
const ANALYTICS_SLOTS = 8;
const prepared = Object.fromEntries(
  [['get', GET_PAYMENT_SQL], ['read', VERIFY_READ_SQL], ...Object.entries(INITIALIZE_SQL)].map(([name, sql]) => [name, { name: `bare.${name}`, ...positional(sql) }]),
) as Record<'get' | 'read' | keyof typeof INITIALIZE_SQL, { name: string; text: string; names: string[] }>;

type Row = Record<string, unknown>;

/** The gateway's own one-statement writes (initialize's insert, a success), by the gateway's statement name and text. */
async function runGateway(pool: Pool, statement: { name: string; text: string }, values: unknown[]): Promise<Row[]> {
  return (await pool.query({ name: statement.name, text: statement.text, values })).rows as Row[];
}

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
  const customerCreated = { reference: values.customer_reference, email: values.email, name: null, phone: null, metadata: {}, created_at: now.toISOString() };
  const [inserted] = await runGateway(pool, INSERT_WITH_CUSTOMER, [
    // The customer (found, or created with its customer.created event): customers.repository.ts, events.repository.ts.
    ...[tenant.developer_id, tenant.mode, values.customer_reference, values.email, null, null, '{}', now],
    ...[`evt_${randomBytes(12).toString('hex')}`, now, tenant.developer_id, tenant.mode, 'customer.created', JSON.stringify(customerCreated), null],
    // The payment: payment-insert.statement.ts.
    ...[tenant.developer_id, tenant.mode, values.reference, 'pending', values.email, values.amount, values.currency, values.callback_url, '{}', '[]'],
    ...[null, null, values.request_hash, null, null, now],
  ]);
  if (!inserted.id) throw new Error('bare: the payment was not inserted');
  values.payment_id = inserted.id;
  const [view] = await run(pool, 'recordCheckout', { ...values, access_code: `ACCESS_${randomBytes(8).toString('hex')}`, provider_url: `http://127.0.0.1/checkout/${values.reference as string}` });
  return view;
}

/** What the gateway's success statement does, with the values it would compute. */
async function credit(pool: Pool, payment: Row, tenant: { developer_id: string; mode: string }): Promise<Row> {
  const amount = minor(payment.amount as string);
  const platformFee = payment.fee_override === null ? PLATFORM_FEE_MINOR : minor(payment.fee_override as string);
  const providerFee = (amount * 15n) / 1000n + 10000n > 200000n ? 200000n : (amount * 15n) / 1000n + 10000n;
  const net = amount - platformFee - providerFee;
  const [fee, provider] = [decimal(platformFee), decimal(providerFee)];
  const now = new Date();
  const card = [`AUTH_${randomBytes(10).toString('hex')}`, payment.customer_id, payment.email, `AUTH_${randomBytes(5).toString('hex')}`, `SIG_${randomBytes(6).toString('hex')}`];
  const eventData = toResponse({ ...payment, status: 'success', platform_fee: fee, provider_fee: provider, net_amount: decimal(net), paid_at: now });
  const [row] = await runGateway(pool, SUCCEED_IN_ONE_STATEMENT, [
    // The ledger credit: ledger.repository.ts (postingParams, then the slot and the deltas).
    ...[tenant.developer_id, tenant.mode, payment.currency, 'payment', payment.id, 'success', now, payment.reference],
    ['provider_clearing', 'wallet', 'wallet', 'platform_fees', 'wallet', 'provider_fees'],
    [null, 'available', 'available', null, 'available', null],
    ['credit', 'credit', 'fee', 'fee', 'fee', 'fee'],
    [-amount, amount, -platformFee, platformFee, -providerFee, providerFee].map(decimal),
    ['Payment received', 'Payment received', 'Platform fee', 'Platform fee', 'Provider fee', 'Provider fee'],
    ...[null, randomInt(SLOT_COUNT), SLOT_COUNT, decimal(net), '0', '0'],
    // The payment.success event and its fan-out: events.repository.ts.
    ...[`evt_${randomBytes(12).toString('hex')}`, now, tenant.developer_id, tenant.mode, 'payment.success', JSON.stringify(eventData), null],
    // The day's analytics totals: analytics.repository.ts.
    ...[[tenant.developer_id], [tenant.mode], [payment.currency], [now.toISOString().slice(0, 10)], [Number.parseInt((payment.id as string).slice(-2), 16) % ANALYTICS_SLOTS]],
    ...[[1], [0], [0], [decimal(amount)], [fee], [provider], ['0'], [0]],
    // The saved card and the status move: payment-success.statement.ts.
    ...[payment.id, ['pending', 'scheduled'], true, tenant.developer_id, tenant.mode, ...card, true, 'visa', '4081', '12', '2030', 'TEST BANK', 'card', now],
    ...[fee, provider, decimal(net), '[]', null, 'Approved', 'card', now, String(randomInt(1e9)), now],
  ]);
  if (!row.id) throw new Error('bare: the payment was not settled');
  return row;
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
