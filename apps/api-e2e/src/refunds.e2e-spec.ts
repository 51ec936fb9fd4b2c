import { assertLedgerInvariants } from '@gateway/domain/ledger/testing';
import { DataSource } from 'typeorm';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, initializePayment, paidPayment, startPaymentsHarness, type PaymentsHarness } from './support/payments';

describe('refunds', () => {
  let h: PaymentsHarness;
  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body, headers });
  const available = async (m: TestMerchant) => (await api(m, 'GET', '/wallet/balance')).body.data.available_balance as number;
  const events = async (name: string, reference: string) =>
    ((await h.gateway.app.get(DataSource).query(`SELECT 1 FROM events WHERE name = $1 AND data->>'reference' = $2`, [name, reference])) as unknown[]).length;
  /** A merchant with successful payments of these amounts; returns their references. */
  async function merchantWithPayments(...amounts: number[]): Promise<{ merchant: TestMerchant; references: string[] }> {
    const merchant = await createMerchant(h.gateway);
    const references: string[] = [];
    for (const amount of amounts) references.push((await paidPayment(h.gateway, merchant, { amount, email: buyer() })).body.data.reference);
    return { merchant, references };
  }

  beforeAll(async () => {
    h = await startPaymentsHarness();
  });
  afterAll(async () => {
    await h?.close();
    await assertLedgerInvariants(process.env.TEST_DATABASE_URL as string);
  });

  it('refunds a payment in full, debits the wallet at once and completes when the provider confirms', async () => {
    // Two payments of 10,000 (net 9,740 each): the wallet covers a full refund of one.
    const { merchant, references } = await merchantWithPayments(10000, 10000);
    const res = await api(merchant, 'POST', '/refunds', { payment_reference: references[0], reason: 'customer request' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ reference: expect.stringMatching(/^RFD_/), payment_reference: references[0], amount: 10000, currency: 'NGN', reason: 'customer request' });
    expect(await available(merchant)).toBe(9480);
    expect((await api(merchant, 'GET', `/payments/${references[0]}`)).body.data.amount_refunded).toBe(10000);

    await h.sim.idle();
    const refund = (await api(merchant, 'GET', `/refunds/${res.body.data.reference}`)).body.data;
    expect(refund).toMatchObject({ status: 'processed', processed_at: expect.any(String) });
    expect(await events('refund.completed', res.body.data.reference)).toBe(1);
    const debit = (await api(merchant, 'GET', '/wallet/ledger?type=debit')).body.data;
    expect(debit).toMatchObject([{ type: 'debit', amount: 10000, reference: res.body.data.reference }]);

    const again = await api(merchant, 'POST', '/refunds', { payment_reference: references[0] });
    expect([again.status, again.body.code]).toEqual([409, 'invalid_state']);
  });

  it('refunds partially, never beyond what is left', async () => {
    const { merchant, references } = await merchantWithPayments(10000);
    const first = await api(merchant, 'POST', '/refunds', { payment_reference: references[0], amount: 2500.5 });
    expect([first.status, first.body.data.amount]).toEqual([201, 2500.5]);
    const tooMuch = await api(merchant, 'POST', '/refunds', { payment_reference: references[0], amount: 7499.51 });
    expect([tooMuch.status, tooMuch.body.code, tooMuch.body.errors.amount]).toEqual([400, 'validation_error', ['must be at most 7499.50 NGN']]);
    // 9,740 − 2,500.50 left in the wallet; the rest of the payment (7,499.50) is more than that.
    const rest = await api(merchant, 'POST', '/refunds', { payment_reference: references[0] });
    expect([rest.status, rest.body.code]).toEqual([422, 'insufficient_wallet_balance']);
    expect((await api(merchant, 'GET', `/payments/${references[0]}`)).body.data.amount_refunded).toBe(2500.5);
    expect(await available(merchant)).toBe(7239.5);
  });

  it('refuses a refund the wallet cannot cover, writing nothing', async () => {
    const { merchant, references } = await merchantWithPayments(1000);
    const res = await api(merchant, 'POST', '/refunds', { payment_reference: references[0] });
    expect([res.status, res.body.code]).toEqual([422, 'insufficient_wallet_balance']);
    expect((await api(merchant, 'GET', `/refunds?payment=${references[0]}`)).body.data).toHaveLength(0);
    expect((await api(merchant, 'GET', `/payments/${references[0]}`)).body.data.amount_refunded).toBe(0);
  });

  it('never overdraws under 16 concurrent partial refunds worth more than the balance', async () => {
    const { merchant, references } = await merchantWithPayments(10000);
    const results = await Promise.all(Array.from({ length: 16 }, () => api(merchant, 'POST', '/refunds', { payment_reference: references[0], amount: 700 })));
    const succeeded = results.filter((r) => r.status === 201).length;
    expect(results.every((r) => r.status === 201 || (r.status === 422 && r.body.code === 'insufficient_wallet_balance'))).toBe(true);
    // 9,740 available: at most 13 refunds of 700 fit.
    expect(succeeded).toBe(13);
    expect(await available(merchant)).toBe(640);
    expect((await api(merchant, 'GET', `/payments/${references[0]}`)).body.data.amount_refunded).toBe(9100);
    await assertLedgerInvariants(h.gateway.app.get(DataSource));
  });

  it('replays a refund for its idempotency key and keeps tenants apart', async () => {
    const { merchant, references } = await merchantWithPayments(10000);
    const headers = { 'Idempotency-Key': 'refund-1' };
    const first = await api(merchant, 'POST', '/refunds', { payment_reference: references[0], amount: 100 }, headers);
    const replay = await api(merchant, 'POST', '/refunds', { payment_reference: references[0], amount: 100 }, headers);
    expect(replay.body.data.reference).toBe(first.body.data.reference);
    expect((await api(merchant, 'GET', `/payments/${references[0]}`)).body.data.amount_refunded).toBe(100);

    const other = await createMerchant(h.gateway);
    const foreign = await api(other, 'POST', '/refunds', { payment_reference: references[0], amount: 100 });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'payment_not_found']);
    const hidden = await api(other, 'GET', `/refunds/${first.body.data.reference}`);
    expect([hidden.status, hidden.body.code]).toEqual([404, 'refund_not_found']);
    expect((await api(other, 'GET', '/refunds')).body.data).toHaveLength(0);
  });

  it('refuses to refund a payment that has not succeeded, and bad input', async () => {
    const merchant = await createMerchant(h.gateway);
    const pending = (await initializePayment(h.gateway, merchant, { amount: 1000, email: buyer() })).body.data.reference;
    const res = await api(merchant, 'POST', '/refunds', { payment_reference: pending });
    expect([res.status, res.body.code]).toEqual([409, 'invalid_state']);
    for (const [body, field] of [
      [{}, 'payment_reference'],
      [{ payment_reference: pending, amount: 0 }, 'amount'],
      [{ payment_reference: pending, amount: 10.001 }, 'amount'],
      [{ payment_reference: pending, amount: '5' }, 'amount'],
    ] as const) {
      const refused = await api(merchant, 'POST', '/refunds', body);
      expect([refused.status, refused.body.code, Object.keys(refused.body.errors)]).toEqual([400, 'validation_error', [field]]);
    }
  });
});
