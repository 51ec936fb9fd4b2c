import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, customerWithSavedCard, initializePayment, schedulerEnvFor, startPaymentsHarness, type PaymentsHarness } from './support/payments';
import { type SchedulerProcess, startScheduler } from './support/scheduler-process';

/** Bulk batches processed by the real scheduler's job-queue worker, against the simulator. */
describe('bulk payments', () => {
  let h: PaymentsHarness;
  let scheduler: SchedulerProcess | undefined;
  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown) => http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body });
  const db = () => h.gateway.app.get(DataSource);
  const schedulerEnv = () => schedulerEnvFor(h, { PAYMENT_BULK_CLAIM_TIMEOUT_SECONDS: '2', PROVIDER_TIMEOUT_MS: '2000' });
  async function untilCompleted(m: TestMerchant, reference: string, timeoutMs = 90_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const batch = (await api(m, 'GET', `/payments/bulk/${reference}`)).body.data;
      if (batch.status === 'completed' || Date.now() > deadline) return batch;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const paymentsOfBatch = async (reference: string) =>
    (await db().query(`SELECT count(*)::int AS n, count(DISTINCT idempotency_key)::int AS keys FROM payments WHERE idempotency_key LIKE $1`, [`batch:${reference}:%`]))[0];

  beforeAll(async () => {
    h = await startPaymentsHarness();
    scheduler = await startScheduler(schedulerEnv());
  }, 90_000);
  afterAll(async () => {
    await scheduler?.stop();
    await h?.close();
  });

  it("answers a missing batch, another merchant's and the other mode's with 404 batch_not_found", async () => {
    const merchant = await createMerchant(h.gateway, { identityVerified: true });
    const reference = (await api(merchant, 'POST', '/payments/bulk', { items: [{ type: 'initialize', amount: 500, email: buyer() }] })).body.data.batch_reference;
    const other = await createMerchant(h.gateway);
    const live = await merchant.issueKey({ mode: 'live' });
    for (const [key, ref] of [[other.key, reference], [live.key, reference], [merchant.key, 'BATCH_does_not_exist']]) {
      const res = await api({ key }, 'GET', `/payments/bulk/${ref}`);
      expect([res.status, res.body.code]).toEqual([404, 'batch_not_found']);
    }
  });

  it('refuses a batch with a bad item, naming it, and creates nothing', async () => {
    const m = await createMerchant(h.gateway);
    const items = Array.from({ length: 5 }, (_, i) => ({ type: 'initialize', amount: 1000 + i, email: buyer() }));
    items[3] = { ...items[3], email: 'not-an-email' };
    const res = await api(m, 'POST', '/payments/bulk', { items: [...items, { type: 'refund', amount: 1 }] });
    expect([res.status, res.body.code]).toEqual([400, 'validation_error']);
    expect(Object.keys(res.body.errors).sort()).toEqual(['items.3.email', 'items.5.type']);
    // Rules beyond the payload's shape (currency, amount limits, split shares, saved cards) too.
    const rules = await api(m, 'POST', '/payments/bulk', {
      items: [items[0], { type: 'initialize', amount: 1000, email: buyer(), currency: 'EUR' }, { type: 'initialize', amount: 50, email: buyer() }],
    });
    expect([rules.status, rules.body.errors]).toEqual([400, { 'items.1': [expect.stringContaining('invalid_currency')], 'items.2.amount': [expect.stringContaining('at least 100')] }]);
    expect((await api(m, 'GET', '/payments')).body.data).toHaveLength(0);
    const tooMany = await api(m, 'POST', '/payments/bulk', { items: Array.from({ length: 1001 }, () => ({ type: 'initialize', amount: 1000, email: 'a@example.com' })) });
    expect([tooMany.status, Object.keys(tooMany.body.errors)]).toEqual([400, ['items']]);
  });

  it('processes 1,000 initializes with per-item results and one batch.completed', async () => {
    const m = await createMerchant(h.gateway);
    const items = Array.from({ length: 1000 }, (_, i) => ({ type: 'initialize', amount: 100 + i, email: `payroll-${i}-${randomBytes(3).toString('hex')}@example.com` }));
    const res = await api(m, 'POST', '/payments/bulk', { items });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ batch_reference: expect.stringMatching(/^BATCH_/), status: 'processing', total: 1000 });
    const batch = await untilCompleted(m, res.body.data.batch_reference);
    expect(batch).toMatchObject({ status: 'completed', counts: { pending: 0, succeeded: 1000, failed: 0 } });
    expect(new Set(batch.items.map((i: { payment_reference: string }) => i.payment_reference)).size).toBe(1000);
    expect(batch.items[999]).toMatchObject({ index: 999, type: 'initialize', status: 'succeeded', payment_status: 'pending' });
    expect(await paymentsOfBatch(res.body.data.batch_reference)).toEqual({ n: 1000, keys: 1000 });
    const completed = await db().query(`SELECT data FROM events WHERE name = 'batch.completed' AND data->>'batch_reference' = $1`, [res.body.data.batch_reference]);
    expect(completed).toHaveLength(1);
    expect(completed[0].data).toMatchObject({ total: 1000, counts: { succeeded: 1000 } });
  }, 120_000);

  it('charges saved cards in bulk, each item with its payment status', async () => {
    const m = await createMerchant(h.gateway);
    const email = buyer();
    const init = await initializePayment(h.gateway, m, { amount: 1000, email });
    await api(m, 'POST', `/sandbox/payments/${init.body.data.reference}/complete`, { outcome: 'success' });
    const code = (await api(m, 'GET', `/payments/${init.body.data.reference}`)).body.data.authorization.authorization_code;
    const res = await api(m, 'POST', '/payments/bulk', { items: [1, 2, 3].map((n) => ({ type: 'charge', authorization_code: code, email, amount: 1000 * n })) });
    const batch = await untilCompleted(m, res.body.data.batch_reference);
    expect(batch.items.map((i: { payment_status: string }) => i.payment_status)).toEqual(['success', 'success', 'success']);
    // 975 from the first checkout, then 1,000 − 10 − 15, 2,000 − 10 − 30 and 3,000 − 10 − (45 + 100).
    expect((await api(m, 'GET', '/wallet/balance')).body.data.available_balance).toBe(975 + 975 + 1960 + 2845);
    const [credits] = await db().query(
      `SELECT count(*)::int AS n, count(DISTINCT reference)::int AS refs FROM ledger_entries WHERE account = 'wallet' AND entry_type = 'credit' AND reference = ANY($1)`,
      [batch.items.map((i: { payment_reference: string }) => i.payment_reference)],
    );
    expect(credits).toEqual({ n: 3, refs: 3 });
  }, 60_000);

  it('counts declined charges as failed, each with its failed payment', async () => {
    // This test card pays at checkout, but its later charges are declined (insufficient funds).
    const { merchant: m, email, code } = await customerWithSavedCard(h, '5399838383838381');
    const res = await api(m, 'POST', '/payments/bulk', { items: [1, 2].map((n) => ({ type: 'charge', authorization_code: code, email, amount: 1000 * n })) });
    const batch = await untilCompleted(m, res.body.data.batch_reference);
    expect(batch).toMatchObject({ status: 'completed', counts: { pending: 0, succeeded: 0, failed: 2 } });
    for (const item of batch.items) {
      expect(item).toMatchObject({ status: 'failed', payment_reference: expect.any(String), payment_status: 'failed', error: { code: 'authorization_declined', message: expect.any(String) } });
    }
    const [completed] = await db().query(`SELECT data FROM events WHERE name = 'batch.completed' AND data->>'batch_reference' = $1`, [res.body.data.batch_reference]);
    expect(completed.data.counts).toEqual({ pending: 0, succeeded: 0, failed: 2 });
  }, 60_000);

  it('resumes an item whose charge timed out (the card was charged) instead of failing it', async () => {
    const { merchant: m, email, code } = await customerWithSavedCard(h);
    const before = (await api(m, 'GET', '/wallet/balance')).body.data.available_balance as number;
    // The provider charges the card but answers well after the worker's 2 s timeout.
    h.sim.setKnobs({ timeoutNext: 1, hangMs: 6000, timeoutMode: 'after_processing' });
    const res = await api(m, 'POST', '/payments/bulk', { items: [{ type: 'charge', authorization_code: code, email, amount: 4000 }] });
    const reference = res.body.data.batch_reference;
    const batch = await untilCompleted(m, reference);
    expect(h.sim.knobs().timeoutNext).toBe(0);
    expect(batch).toMatchObject({ status: 'completed', counts: { pending: 0, succeeded: 1, failed: 0 } });
    expect(batch.items[0]).toMatchObject({ status: 'succeeded', payment_status: 'success', error: null });
    expect(await paymentsOfBatch(reference)).toEqual({ n: 1, keys: 1 });
    // 4,000 − 10 − (60 + 100), credited once.
    expect((await api(m, 'GET', '/wallet/balance')).body.data.available_balance).toBe(before + 3830);
  }, 60_000);

  it('resumes after the worker is killed mid-batch, without creating any payment twice', async () => {
    // Every fourth item charges a saved card: a resumed item must not charge (or credit) twice.
    const { merchant: m, email, code } = await customerWithSavedCard(h);
    const items = Array.from({ length: 400 }, (_, i) =>
      i % 4 === 0
        ? { type: 'charge', authorization_code: code, email, amount: 500 + i }
        : { type: 'initialize', amount: 500 + i, email: `crash-${i}-${randomBytes(3).toString('hex')}@example.com` },
    );
    const reference = (await api(m, 'POST', '/payments/bulk', { items })).body.data.batch_reference;
    for (let i = 0; i < 400; i++) {
      const done = (await api(m, 'GET', `/payments/bulk/${reference}`)).body.data.counts.succeeded;
      if (done >= 40) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await scheduler?.kill9();
    const atCrash = (await api(m, 'GET', `/payments/bulk/${reference}`)).body.data;
    expect(atCrash.status).toBe('processing');
    // Really mid-batch: some items were done when the worker died, some were not.
    expect(atCrash.counts.succeeded).toBeGreaterThan(0);
    expect(atCrash.counts.succeeded).toBeLessThan(400);
    scheduler = await startScheduler(schedulerEnv());
    const batch = await untilCompleted(m, reference);
    expect(batch).toMatchObject({ status: 'completed', counts: { pending: 0, succeeded: 400, failed: 0 } });
    expect(await paymentsOfBatch(reference)).toEqual({ n: 400, keys: 400 });
    const charged = batch.items.filter((i: { type: string }) => i.type === 'charge');
    expect(charged.map((i: { payment_status: string }) => i.payment_status)).toEqual(Array(100).fill('success'));
    const [credits] = await db().query(
      `SELECT count(*)::int AS n, count(DISTINCT reference)::int AS refs FROM ledger_entries WHERE account = 'wallet' AND entry_type = 'credit' AND reference = ANY($1)`,
      [charged.map((i: { payment_reference: string }) => i.payment_reference)],
    );
    expect(credits).toEqual({ n: 100, refs: 100 });
  }, 150_000);
});
