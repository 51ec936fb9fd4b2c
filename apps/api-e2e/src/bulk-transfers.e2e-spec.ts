import { TransferBatchesService, TransfersService } from '@gateway/domain/transfers';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, schedulerEnvFor, startPaymentsHarness, type PaymentsHarness } from './support/payments';
import { type SchedulerProcess, startScheduler } from './support/scheduler-process';

/** Polls `read` until `done` holds, failing with the last value after `timeoutMs`. */
async function waitUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A 10-digit account number of its own per call, so recipients never collide across tests. */
const accountNumber = () => `1${String(BigInt(`0x${randomBytes(6).toString('hex')}`) % 1_000_000_000n).padStart(9, '0')}`;
/** The simulator's account whose transfers the bank fails (docs/provider-simulator.md). */
const FAILING_ACCOUNT = '0000000000';
/** Money in the tests is counted in whole cents (integers), never summed as floats. */
const cents = (amount: number) => Math.round(amount * 100);
const major = (c: number) => c / 100;

interface BatchItem {
  index: number;
  amount: number;
  status: string;
  transfer_reference: string | null;
  transfer_status: string | null;
  error: { code: string; message: string } | null;
}

/** Bulk transfers over HTTP: the API against the simulator, batches processed by the real scheduler process. */
describe('bulk transfers', () => {
  let h: PaymentsHarness;
  let scheduler: SchedulerProcess | undefined;
  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body, headers });
  const db = () => h.gateway.app.get(DataSource);
  const balance = async (m: TestMerchant) => (await api(m, 'GET', '/wallet/balance')).body.data as { available_balance: number; reserved_balance: number; total_balance: number };
  const bankForm = (amount: number, account = accountNumber()) => ({ amount, bank_code: '058', account_number: account, account_name: 'Ada Lovelace', narration: 'Payroll' });
  const batchesOf = async (m: TestMerchant) => (await db().query(`SELECT reference FROM transfer_batches WHERE developer_id = $1`, [m.developerId])) as unknown[];
  const batchIdOf = async (reference: string) => ((await db().query(`SELECT id FROM transfer_batches WHERE reference = $1`, [reference])) as Array<{ id: string }>)[0].id;
  /** The batch's transfers (by their idempotency keys), and the reservations posted for them. */
  const madeFor = async (batchId: string) =>
    (
      await db().query(
        `SELECT count(DISTINCT t.id)::int AS transfers, count(DISTINCT t.idempotency_key)::int AS keys, count(p.id)::int AS reservations FROM transfers t
           LEFT JOIN ledger_postings p ON p.source_type = 'transfer' AND p.source_id = t.id::text AND p.kind = 'reserve'
          WHERE t.idempotency_key LIKE $1`,
        [`batch:${batchId}:%`],
      )
    )[0] as { transfers: number; keys: number; reservations: number };
  const completedEvents = async (reference: string) =>
    (await db().query(`SELECT data FROM events WHERE name = 'batch.completed' AND data->>'batch_reference' = $1`, [reference])) as Array<{ data: Record<string, unknown> }>;
  const untilCompleted = (m: TestMerchant, reference: string, timeoutMs: number) =>
    waitUntil(async () => (await api(m, 'GET', `/transfers/bulk/${reference}`)).body.data, (batch) => batch?.status === 'completed', timeoutMs);
  const withScheduler = async <T>(work: () => Promise<T>): Promise<T> => {
    scheduler = await startScheduler(schedulerEnvFor(h, { PROVIDER_TIMEOUT_MS: '2000' }));
    try {
      return await work();
    } finally {
      await scheduler.stop();
      scheduler = undefined;
    }
  };

  /** A live merchant whose wallet holds the net of one paid live payment of `amount`. */
  async function fundedMerchant(amount = 10_000): Promise<TestMerchant> {
    const merchant = await createMerchant(h.gateway, { identityVerified: true, mode: 'live' });
    const init = await api(merchant, 'POST', '/payments/initialize', { amount, email: buyer() });
    expect(init.status).toBe(201);
    await http(h.sim.url() as string, 'POST', `/sim/transactions/${init.body.data.reference}/complete`, { token: h.secrets.live, body: {} });
    const verified = await api(merchant, 'POST', '/payments/verify', { reference: init.body.data.reference });
    expect(verified.body.data.status).toBe('success');
    return merchant;
  }

  beforeAll(async () => {
    // A database of its own: its schedulers would take other files' jobs (and theirs this file's batches), each with another simulator.
    h = await startPaymentsHarness({ PROVIDER_TIMEOUT_MS: '2000' }, { ownDatabase: true });
  });
  afterAll(async () => {
    await scheduler?.stop();
    await h?.close();
  });

  it('refuses a test key on both bulk routes with 403 live_mode_required, and nothing moves', async () => {
    const merchant = await createMerchant(h.gateway);
    const before = await balance(merchant);
    const post = await api(merchant, 'POST', '/transfers/bulk', { items: [bankForm(1000)] });
    const get = await api(merchant, 'GET', '/transfers/bulk/tbatch_00000000000000000000');
    expect([post.status, post.body.code, get.status, get.body.code]).toEqual([403, 'live_mode_required', 403, 'live_mode_required']);
    expect(await balance(merchant)).toEqual(before);
    expect(await batchesOf(merchant)).toEqual([]);
  });

  it('reports every invalid item by its index — its fields, then the rules of a transfer — and creates nothing', async () => {
    const merchant = await fundedMerchant();
    const before = await balance(merchant);
    const shape = await api(merchant, 'POST', '/transfers/bulk', {
      items: [
        bankForm(1000),
        { bank_code: '058', account_number: '0123456789', account_name: 'A' },
        { ...bankForm(1000), source: 'wallet', recipient: 'RCP_00000000000000000000' },
        { ...bankForm('1000' as unknown as number), account_number: '12-34' },
        { ...bankForm(1000), fee_bearer: 'me' },
        { amount: 1000, source: 'wallet' },
      ],
    });
    expect([shape.status, shape.body.code]).toEqual([400, 'validation_error']);
    expect(Object.keys(shape.body.errors).sort()).toEqual([
      'items.1.amount',
      'items.2.account_name',
      'items.2.account_number',
      'items.2.bank_code',
      'items.2.narration',
      'items.3.account_number',
      'items.3.amount',
      'items.4.fee_bearer',
      'items.5.recipient',
    ]);

    const rules = await api(merchant, 'POST', '/transfers/bulk', {
      items: [
        bankForm(1000),
        bankForm(99.99),
        { ...bankForm(1000), bank_code: '999', account_number: '1234567' },
        { amount: 1000, source: 'wallet', recipient: 'RCP_00000000000000000000' },
        { ...bankForm(1000), currency: 'KES' },
        bankForm(100.001),
      ],
    });
    expect([rules.status, rules.body.code]).toEqual([400, 'validation_error']);
    expect(rules.body.errors).toEqual({
      'items.1.amount': ['amount must be at least 100.00 NGN'],
      'items.2.account_number': ['must be a 10-digit NUBAN for NGN'],
      'items.2.bank_code': ['is not a NGN bank listed by GET /banks'],
      'items.3.recipient': [expect.stringContaining('is not a recipient')],
      'items.4.currency': ["must be NGN, the batch's currency, or left out"],
      'items.5.amount': [expect.stringContaining('decimal')],
    });

    const tooMany = await api(merchant, 'POST', '/transfers/bulk', { items: Array.from({ length: 1001 }, () => bankForm(1000, '0123456789')) });
    expect([tooMany.status, tooMany.body.errors]).toEqual([400, { items: ['items must contain no more than 1000 elements'] }]);
    const none = await api(merchant, 'POST', '/transfers/bulk', { items: [] });
    expect([none.status, Object.keys(none.body.errors)]).toEqual([400, ['items']]);
    expect((await api(merchant, 'POST', '/transfers/bulk', { currency: 'EUR', items: [bankForm(1000)] })).body.code).toBe('invalid_currency');

    expect(await balance(merchant)).toEqual(before);
    expect(await batchesOf(merchant)).toEqual([]);
  });

  it("refuses a batch whose total is above the available balance with 422, storing nothing (9,740 available)", async () => {
    const merchant = await fundedMerchant();
    const res = await api(merchant, 'POST', '/transfers/bulk', { items: [bankForm(5000), bankForm(4740.01)] });
    expect([res.status, res.body.code]).toEqual([422, 'insufficient_wallet_balance']);
    expect(await balance(merchant)).toMatchObject({ available_balance: 9740, reserved_balance: 0 });
    expect(await batchesOf(merchant)).toEqual([]);
    expect((await api(merchant, 'GET', '/transfers')).body.data).toEqual([]);
  });

  it("answers 404 batch_not_found for a missing batch and another developer's; a repeated POST with its key answers the same batch", async () => {
    const merchant = await fundedMerchant();
    const headers = { 'Idempotency-Key': `bulk-${randomBytes(6).toString('hex')}` };
    const body = { items: [bankForm(1000), bankForm(2000)] };
    const created = await api(merchant, 'POST', '/transfers/bulk', body, headers);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      type: 'transfers',
      batch_reference: expect.stringMatching(/^tbatch_[0-9a-f]{20}$/),
      status: 'processing',
      currency: 'NGN',
      total: 2,
      total_amount: 3000,
      counts: { pending: 2, succeeded: 0, failed: 0 },
      completed_at: null,
    });
    expect(created.body.data.items[1]).toEqual({ index: 1, amount: 2000, status: 'pending', transfer_reference: null, transfer_status: null, error: null });
    const replay = await api(merchant, 'POST', '/transfers/bulk', body, headers);
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body.data.batch_reference]).toEqual([201, 'true', created.body.data.batch_reference]);
    expect(await batchesOf(merchant)).toHaveLength(1);

    const reference = created.body.data.batch_reference as string;
    expect((await api(merchant, 'GET', `/transfers/bulk/${reference}/`)).body.data.batch_reference).toBe(reference);
    const other = await fundedMerchant();
    for (const [who, ref] of [[other, reference], [merchant, 'tbatch_00000000000000000000']] as const) {
      const res = await api(who, 'GET', `/transfers/bulk/${ref}`);
      expect([res.status, res.body.code]).toEqual([404, 'batch_not_found']);
    }
    await withScheduler(() => untilCompleted(merchant, reference, 60_000));
  }, 120_000);

  it('pays 1,000 items: failures at the bank and items the balance can no longer cover, exact counts and balances, batch.completed once', async () => {
    const merchant = await fundedMerchant(250_000);
    const start = cents((await balance(merchant)).available_balance);
    const accounts = [accountNumber(), accountNumber(), accountNumber()];
    const saved = (await api(merchant, 'POST', '/transfers/recipients', { bank_code: '058', account_number: accountNumber() })).body.data.recipient_code as string;
    // Items 0–949 are paid; 950–969 are too big once another payout took its share; 970–999 go to the account the bank fails.
    const normal = Array.from({ length: 950 }, (_, i) => 10_001 + (i % 97) * 7);
    const failing = Array.from({ length: 30 }, () => 10_050);
    const spare = failing.reduce((a, b) => a + b, 0) + 5_000;
    // Above what is left even while the last paid items are still being made (a few at a time).
    const big = spare + 20 * Math.max(...normal);
    const items = [
      ...normal.map((c, i) => (i % 5 === 0 ? { source: 'wallet', amount: major(c), recipient: saved, reason: `Salary ${i}` } : bankForm(major(c), accounts[i % accounts.length]))),
      ...Array.from({ length: 20 }, () => bankForm(major(big), accounts[0])),
      ...failing.map((c) => bankForm(major(c), FAILING_ACCOUNT)),
    ];
    const paid = normal.reduce((a, b) => a + b, 0);
    const total = paid + 20 * big + failing.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(start);

    const created = await api(merchant, 'POST', '/transfers/bulk', { currency: 'NGN', items });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ status: 'processing', total: 1000, total_amount: major(total), counts: { pending: 1000, succeeded: 0, failed: 0 } });
    const reference = created.body.data.batch_reference as string;
    // Before any worker runs, another payout leaves exactly the paid items plus `spare` available.
    const drain = await api(merchant, 'POST', '/transfers', bankForm(major(start - paid - spare), accounts[1]));
    expect(drain.status).toBe(201);
    expect(cents((await balance(merchant)).available_balance)).toBe(paid + spare);

    const batch = await withScheduler(() => untilCompleted(merchant, reference, 240_000));
    expect(batch.counts).toEqual({ pending: 0, succeeded: 980, failed: 20 });
    const byStatus = (status: string) => (batch.items as BatchItem[]).filter((i) => i.status === status).map((i) => i.index);
    expect(byStatus('failed')).toEqual(Array.from({ length: 20 }, (_, i) => 950 + i));
    for (const item of (batch.items as BatchItem[]).slice(950, 970)) {
      expect(item).toMatchObject({ amount: major(big), transfer_reference: null, transfer_status: null, error: { code: 'insufficient_wallet_balance' } });
    }

    // The bank's word arrives by callback: the failed transfers' reservations are released.
    await h.sim.idle();
    const settled = await waitUntil(() => balance(merchant), (b) => b.reserved_balance === 0, 60_000);
    expect([cents(settled.available_balance), cents(settled.reserved_balance), cents(settled.total_balance)]).toEqual([spare, 0, spare]);
    const after = (await api(merchant, 'GET', `/transfers/bulk/${reference}`)).body.data.items as BatchItem[];
    expect(new Set(after.slice(0, 950).map((i) => i.transfer_status))).toEqual(new Set(['success']));
    expect(new Set(after.slice(970).map((i) => i.transfer_status))).toEqual(new Set(['failed']));
    expect(new Set(after.filter((i) => i.transfer_reference).map((i) => i.transfer_reference)).size).toBe(980);
    expect(await madeFor(await batchIdOf(reference))).toEqual({ transfers: 980, keys: 980, reservations: 980 });

    const completed = await completedEvents(reference);
    expect(completed).toHaveLength(1);
    expect(completed[0].data).toMatchObject({ type: 'transfers', status: 'completed', total: 1000, total_amount: major(total), counts: { pending: 0, succeeded: 980, failed: 20 } });
    expect(completed[0].data).not.toHaveProperty('items');
  }, 360_000);

  it('resumes items whose worker died — one after making its transfer, one right after claiming it — each exactly once: one transfer, one reservation', async () => {
    const merchant = await fundedMerchant();
    const created = await api(merchant, 'POST', '/transfers/bulk', { items: [bankForm(1000), bankForm(1500.5), bankForm(2000.25)] });
    const reference = created.body.data.batch_reference as string;
    const batchId = await batchIdOf(reference);
    // A worker that is alive (for now) holds item 2; a worker in this process makes item 0 or 1's
    // transfer and dies before recording it.
    await db().query(`UPDATE transfer_batch_items SET status = 'processing', claimed_at = now(), claim_token = gen_random_uuid() WHERE batch_id = $1 AND position = 2`, [batchId]);
    const transfers = h.gateway.app.get(TransfersService, { strict: false });
    const real = transfers.create.bind(transfers);
    const died = jest.spyOn(transfers, 'create').mockImplementationOnce(async (...args) => {
      await real(...args);
      throw new Error('the worker died before recording its item');
    });
    try {
      await expect(h.gateway.app.get(TransferBatchesService, { strict: false }).process(batchId)).rejects.toThrow('the worker died');
    } finally {
      died.mockRestore();
    }
    const atCrash = (await api(merchant, 'GET', `/transfers/bulk/${reference}`)).body.data;
    expect(atCrash).toMatchObject({ status: 'processing', counts: { pending: 2, succeeded: 1, failed: 0 } });
    expect(await madeFor(batchId)).toEqual({ transfers: 2, keys: 2, reservations: 2 });

    // Both workers are gone: their claims are stale, and the scheduler takes the items over.
    await db().query(`UPDATE transfer_batch_items SET claimed_at = now() - interval '1 hour' WHERE batch_id = $1 AND status = 'processing'`, [batchId]);
    const batch = await withScheduler(() => untilCompleted(merchant, reference, 90_000));
    expect(batch.counts).toEqual({ pending: 0, succeeded: 3, failed: 0 });
    expect(await madeFor(batchId)).toEqual({ transfers: 3, keys: 3, reservations: 3 });
    await h.sim.idle();
    const settled = await waitUntil(() => balance(merchant), (b) => b.reserved_balance === 0);
    expect(cents(settled.available_balance)).toBe(cents(9740) - cents(4500.75));
    const successes = await db().query(`SELECT count(*)::int AS n FROM events WHERE name = 'transfer.success' AND data->>'reference' = ANY($1)`, [
      (batch.items as BatchItem[]).map((i) => i.transfer_reference),
    ]);
    expect(successes).toEqual([{ n: 3 }]);
    expect(await completedEvents(reference)).toHaveLength(1);
  }, 150_000);
});
