import { TransfersService } from '@gateway/domain/transfers';
import { signCallbackBody } from '@gateway/provider-sim';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, schedulerEnvFor, startPaymentsHarness, type PaymentsHarness } from './support/payments';
import { startScheduler } from './support/scheduler-process';

/** Polls `read` until `done` holds, failing with the last value after `timeoutMs`. */
async function waitUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A 10-digit account number of its own per call, so recipients never collide across tests. */
const accountNumber = () => `1${String(BigInt(`0x${randomBytes(6).toString('hex')}`) % 1_000_000_000n).padStart(9, '0')}`;
/** The simulator's account numbers with a fixed outcome (docs/provider-simulator.md). */
const FAILING_ACCOUNT = '0000000000';
const SILENT_ACCOUNT = '0000000001';
const REVERSING_ACCOUNT = '0000000002';

describe('transfers', () => {
  let h: PaymentsHarness;
  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body, headers });
  const balance = async (m: TestMerchant) => (await api(m, 'GET', '/wallet/balance')).body.data as { available_balance: number; reserved_balance: number; total_balance: number };
  const events = async (name: string, reference: string) =>
    ((await h.gateway.app.get(DataSource).query(`SELECT data->>'status' AS status FROM events WHERE name = $1 AND data->>'reference' = $2`, [name, reference])) as Array<{ status: string }>).map(
      (e) => e.status,
    );
  /** The merchant's ledger entries for one transfer, as `type bucket direction amount`, sorted. */
  const ledgerOf = async (m: TestMerchant, reference: string) =>
    ((await api(m, 'GET', `/wallet/ledger?reference=${reference}&limit=100`)).body.data as Array<{ type: string; amount: number; balance_type: string; direction: string }>)
      .map((e) => `${e.type} ${e.balance_type} ${e.direction} ${e.amount}`)
      .sort();
  const bankForm = (amount: number, account = accountNumber()) => ({ amount, bank_code: '058', account_number: account, account_name: 'Ada Lovelace', narration: 'Supplier invoice 42' });

  /** A live merchant whose wallet holds the net of one paid live payment of `amount` (10,000 → 9,740 available). */
  async function fundedMerchant(amount = 10_000): Promise<TestMerchant> {
    const merchant = await createMerchant(h.gateway, { identityVerified: true, mode: 'live' });
    const init = await api(merchant, 'POST', '/payments/initialize', { amount, email: buyer() });
    expect(init.status).toBe(201);
    await http(h.sim.url() as string, 'POST', `/sim/transactions/${init.body.data.reference}/complete`, { token: h.secrets.live, body: {} });
    const verified = await api(merchant, 'POST', '/payments/verify', { reference: init.body.data.reference });
    expect(verified.body.data.status).toBe('success');
    return merchant;
  }

  /** A saved recipient's code, so that the next provider call of a transfer is the payout itself. */
  const savedRecipient = async (m: TestMerchant) => (await api(m, 'POST', '/transfers/recipients', { bank_code: '058', account_number: accountNumber() })).body.data.recipient_code as string;

  beforeAll(async () => {
    // A database of its own: its reconciliation tests age transfers, which other files' schedulers must not take.
    // One connection in the API's pool: a transfer that took a second connection while its transaction
    // holds the first (and the wallet's slots) would wait for ever here, as it did under load when every
    // other connection waited for those slots (the reliability tier's overdraw row found it).
    h = await startPaymentsHarness({ PROVIDER_TIMEOUT_MS: '2000', DATABASE_POOL_SIZE: '1' }, { ownDatabase: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  describe('live mode only', () => {
    it('refuses a test key on every transfer route with 403 live_mode_required, and nothing moves', async () => {
      const merchant = await createMerchant(h.gateway);
      const before = await balance(merchant);
      for (const [method, path, body] of [
        ['POST', '/transfers', bankForm(1000)],
        ['GET', '/transfers', undefined],
        ['GET', '/transfers/trf_0123456789abcdef01234567', undefined],
        ['POST', '/transfers/recipients', { bank_code: '058', account_number: accountNumber() }],
        ['GET', '/transfers/recipients', undefined],
      ] as const) {
        const res = await api(merchant, method, path, body);
        expect([method, path, res.status, res.body.code]).toEqual([method, path, 403, 'live_mode_required']);
      }
      expect(await balance(merchant)).toEqual(before);
      expect(await h.gateway.app.get(DataSource).query(`SELECT 1 FROM transfers WHERE developer_id = $1`, [merchant.developerId])).toEqual([]);
    });

    it('lists banks for either mode', async () => {
      const merchant = await createMerchant(h.gateway);
      const banks = await api(merchant, 'GET', '/banks?currency=NGN');
      expect(banks.status).toBe(200);
      expect(banks.body.data).toEqual(expect.arrayContaining([{ name: 'Guaranty Trust Bank', code: '058', currency: 'NGN', type: 'nuban' }]));
      expect((await api(merchant, 'GET', '/banks?currency=EUR')).body.code).toBe('invalid_currency');
      expect((await api(merchant, 'GET', '/banks?currency=USD')).body.code).toBe('capability_not_supported');
    });
  });

  describe('validation', () => {
    let merchant: TestMerchant;
    beforeAll(async () => {
      merchant = await fundedMerchant();
    });

    it.each([
      ['no amount', { bank_code: '058', account_number: '0123456789', account_name: 'A' }, ['amount']],
      ['a zero amount', { ...bankForm(0) }, ['amount']],
      ['three decimals', { ...bankForm(100.001) }, ['amount']],
      ['an amount below the minimum', { ...bankForm(99.99) }, ['amount']],
      ['the bank form without its account', { amount: 1000, bank_code: '058' }, ['account_name', 'account_number']],
      ['the wallet form without a recipient', { amount: 1000, source: 'wallet' }, ['recipient']],
      ['both forms at once', { ...bankForm(1000), source: 'wallet', recipient: 'RCP_00000000000000000000' }, ['account_name', 'account_number', 'bank_code', 'narration']],
      ['a malformed account number', { ...bankForm(1000), account_number: '12-34' }, ['account_number']],
      ['an NGN account that is not a NUBAN', { ...bankForm(1000), account_number: '1234567' }, ['account_number']],
      ['a bank the provider does not list', { ...bankForm(1000), bank_code: '999' }, ['bank_code']],
      ['an account the bank cannot resolve', { ...bankForm(1000), account_number: '9999999999' }, ['account_number']],
      ['an unknown recipient', { amount: 1000, source: 'wallet', recipient: 'RCP_00000000000000000000' }, ['recipient']],
      ['an unknown field', { ...bankForm(1000), fee_bearer: 'me' }, ['fee_bearer']],
    ])('refuses %s with 400 validation_error naming each field, and reserves nothing', async (_what, body, fields) => {
      const before = await balance(merchant);
      const res = await api(merchant, 'POST', '/transfers', body);
      expect([res.status, res.body.code, Object.keys(res.body.errors ?? {}).sort()]).toEqual([400, 'validation_error', fields]);
      expect(await balance(merchant)).toEqual(before);
    });

    it('refuses a currency the gateway does not take, and one the provider cannot pay out', async () => {
      expect((await api(merchant, 'POST', '/transfers', { ...bankForm(1000), currency: 'EUR' })).body.code).toBe('invalid_currency');
      const usd = await api(merchant, 'POST', '/transfers', { ...bankForm(1000), currency: 'USD' });
      expect([usd.status, usd.body.code]).toEqual([422, 'capability_not_supported']);
    });
  });

  describe('paying out', () => {
    it('reserves at once, then debits the reserved amount when the bank pays (bank form): transfer.success', async () => {
      const merchant = await fundedMerchant();
      const res = await api(merchant, 'POST', '/transfers', bankForm(2500.5));
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        reference: expect.stringMatching(/^trf_[0-9a-f]{24}$/),
        amount: 2500.5,
        currency: 'NGN',
        source: 'bank',
        reason: 'Supplier invoice 42',
        recipient: { recipient_code: expect.stringMatching(/^RCP_/), bank_code: '058', bank_name: 'Guaranty Trust Bank', account_name: expect.any(String) },
      });
      expect(res.body.data.recipient).not.toHaveProperty('account_number');
      const reference = res.body.data.reference as string;

      await h.sim.idle();
      const settled = (await api(merchant, 'GET', `/transfers/${reference}`)).body.data;
      expect(settled).toMatchObject({ status: 'success', completed_at: expect.any(String), failure_reason: null });
      expect(await balance(merchant)).toMatchObject({ available_balance: 9740 - 2500.5, reserved_balance: 0, total_balance: 9740 - 2500.5 });
      // Reserved (available → reserved), then paid out of the reservation.
      expect(await ledgerOf(merchant, reference)).toEqual(['debit available debit 2500.5', 'debit reserved credit 2500.5', 'debit reserved debit 2500.5']);
      expect(await events('transfer.success', reference)).toEqual(['success']);
      expect(await events('transfer.failed', reference)).toEqual([]);
    });

    it('pays a saved recipient (wallet form); saving the same account again answers the same recipient', async () => {
      const merchant = await fundedMerchant();
      const account = accountNumber();
      const saved = await api(merchant, 'POST', '/transfers/recipients', { bank_code: '058', account_number: account });
      expect(saved.status).toBe(201);
      expect(saved.body.data).toMatchObject({ recipient_code: expect.stringMatching(/^RCP_[0-9a-f]{20}$/), account_number_last4: account.slice(-4), bank_code: '058', currency: 'NGN' });
      const again = await api(merchant, 'POST', '/transfers/recipients', { bank_code: '058', account_number: account });
      expect(again.body.data.recipient_code).toBe(saved.body.data.recipient_code);
      expect((await api(merchant, 'GET', '/transfers/recipients')).body.data.map((r: { recipient_code: string }) => r.recipient_code)).toEqual([saved.body.data.recipient_code]);

      const res = await api(merchant, 'POST', '/transfers', { source: 'wallet', amount: 1000, recipient: saved.body.data.recipient_code, reason: 'Salary' });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ source: 'wallet', reason: 'Salary', recipient: { recipient_code: saved.body.data.recipient_code } });
      await h.sim.idle();
      expect((await api(merchant, 'GET', `/transfers/${res.body.data.reference}`)).body.data.status).toBe('success');
      // The bank form for the same account reuses the recipient.
      const byBank = await api(merchant, 'POST', '/transfers', bankForm(1000, account));
      expect(byBank.body.data.recipient.recipient_code).toBe(saved.body.data.recipient_code);
    });

    it('releases the reservation when the bank refuses: status failed with the reason, transfer.failed', async () => {
      const merchant = await fundedMerchant();
      const res = await api(merchant, 'POST', '/transfers', bankForm(3000, FAILING_ACCOUNT));
      expect(res.status).toBe(201);
      const reference = res.body.data.reference as string;
      await h.sim.idle();
      expect((await api(merchant, 'GET', `/transfers/${reference}`)).body.data).toMatchObject({ status: 'failed', failure_reason: expect.stringMatching(/credit/i) });
      expect(await balance(merchant)).toMatchObject({ available_balance: 9740, reserved_balance: 0 });
      expect(await events('transfer.failed', reference)).toEqual(['failed']);
      expect(await events('transfer.success', reference)).toEqual([]);
    });

    it('gives the money back when the bank reverses a paid transfer: status reversed, transfer.failed', async () => {
      const merchant = await fundedMerchant();
      const reference = (await api(merchant, 'POST', '/transfers', bankForm(4000))).body.data.reference as string;
      await h.sim.idle();
      expect((await api(merchant, 'GET', `/transfers/${reference}`)).body.data.status).toBe('success');
      expect((await balance(merchant)).available_balance).toBe(9740 - 4000);

      await http(h.sim.url() as string, 'POST', `/sim/transfers/${reference}/complete`, { token: h.secrets.live, body: { outcome: 'reversed' } });
      await h.sim.idle();
      expect((await api(merchant, 'GET', `/transfers/${reference}`)).body.data).toMatchObject({ status: 'reversed', failure_reason: expect.any(String) });
      expect(await balance(merchant)).toMatchObject({ available_balance: 9740, reserved_balance: 0, total_balance: 9740 });
      expect(await events('transfer.success', reference)).toEqual(['success']);
      expect(await events('transfer.failed', reference)).toEqual(['reversed']);
      // Reserved, paid out of the reservation, then returned to the available balance.
      expect(await ledgerOf(merchant, reference)).toEqual([
        'credit available credit 4000',
        'debit available debit 4000',
        'debit reserved credit 4000',
        'debit reserved debit 4000',
      ]);
    });

    it('a transfer paid and reversed at once ends reversed with the money back, whichever of the two the gateway learnt first', async () => {
      const merchant = await fundedMerchant();
      const reference = (await api(merchant, 'POST', '/transfers', bankForm(3500, REVERSING_ACCOUNT))).body.data.reference as string;
      await waitUntil(async () => (await api(merchant, 'GET', `/transfers/${reference}`)).body.data.status, (status) => status === 'reversed');
      await h.sim.idle();
      expect(await balance(merchant)).toMatchObject({ available_balance: 9740, reserved_balance: 0, total_balance: 9740 });
      expect(await events('transfer.failed', reference)).toEqual(['reversed']);
      // Callbacks drive a verify, so the success may never have been seen: at most one success event.
      expect((await events('transfer.success', reference)).length).toBeLessThanOrEqual(1);
    });

    it('refuses a transfer above the available balance with 422 and moves nothing', async () => {
      const merchant = await fundedMerchant();
      const res = await api(merchant, 'POST', '/transfers', bankForm(9740.01));
      expect([res.status, res.body.code]).toEqual([422, 'insufficient_wallet_balance']);
      expect(await balance(merchant)).toMatchObject({ available_balance: 9740, reserved_balance: 0 });
      expect((await api(merchant, 'GET', '/transfers')).body.data).toEqual([]);
    });

    it('16 concurrent transfers with room for exactly 5: 5 are made, 11 refused, never an overdraft', async () => {
      const merchant = await fundedMerchant();
      h.sim.setKnobs({ autoComplete: false });
      try {
        const answers = await Promise.all(Array.from({ length: 16 }, () => api(merchant, 'POST', '/transfers', bankForm(1900))));
        const statuses = answers.map((a) => a.status).sort();
        expect(statuses).toEqual([...Array(5).fill(201), ...Array(11).fill(422)]);
        expect(answers.filter((a) => a.status === 422).every((a) => a.body.code === 'insufficient_wallet_balance')).toBe(true);
        expect(await balance(merchant)).toMatchObject({ available_balance: 9740 - 5 * 1900, reserved_balance: 5 * 1900, total_balance: 9740 });
      } finally {
        h.sim.setKnobs({ autoComplete: true });
      }
    });
  });

  describe('never twice', () => {
    it('a retry with the same Idempotency-Key after a provider timeout finds the transfer, and the provider pays it once', async () => {
      const merchant = await fundedMerchant();
      const headers = { 'Idempotency-Key': `trf-${randomBytes(6).toString('hex')}` };
      const body = { source: 'wallet', amount: 1500, recipient: await savedRecipient(merchant) };
      // The provider takes the transfer but its answer never arrives; it settles only when told.
      h.sim.setKnobs({ timeoutNext: 1, hangMs: 4_000, timeoutMode: 'after_processing', autoComplete: false });
      try {
        const first = await api(merchant, 'POST', '/transfers', body, headers);
        expect([first.status, first.body.code]).toEqual([504, 'gateway_timeout']);
        const [pending] = (await api(merchant, 'GET', '/transfers')).body.data;
        expect(pending).toMatchObject({ status: 'pending', amount: 1500 });
        expect((await balance(merchant)).reserved_balance).toBe(1500);

        const retry = await api(merchant, 'POST', '/transfers', body, headers);
        expect([retry.status, retry.body.data.reference, retry.body.data.status]).toEqual([201, pending.reference, 'pending']);
        const reused = await api(merchant, 'POST', '/transfers', { ...body, amount: 1501 }, headers);
        expect([reused.status, reused.body.code]).toEqual([422, 'idempotency_key_reused']);

        await http(h.sim.url() as string, 'POST', `/sim/transfers/${pending.reference}/complete`, { token: h.secrets.live, body: { outcome: 'success' } });
        await h.sim.idle();
        expect((await api(merchant, 'GET', `/transfers/${pending.reference}`)).body.data.status).toBe('success');
        expect((await api(merchant, 'GET', '/transfers')).body.data).toHaveLength(1);
        expect(await events('transfer.success', pending.reference)).toEqual(['success']);
        expect(await balance(merchant)).toMatchObject({ available_balance: 9740 - 1500, reserved_balance: 0 });
      } finally {
        h.sim.setKnobs({ autoComplete: true });
      }
    });

    it('a transfer the provider never received (the process lost it after reserving) is sent by the reconciliation scan, once', async () => {
      const merchant = await fundedMerchant();
      const recipient = await savedRecipient(merchant);
      h.sim.setKnobs({ timeoutNext: 1, hangMs: 4_000, timeoutMode: 'before_processing' });
      const first = await api(merchant, 'POST', '/transfers', { source: 'wallet', amount: 1200, recipient });
      expect(first.status).toBe(504);
      const [pending] = (await api(merchant, 'GET', '/transfers')).body.data;
      expect(pending.status).toBe('pending');
      expect((await http(h.sim.url() as string, 'GET', `/transfer/verify/${pending.reference}`, { token: h.secrets.live })).status).toBe(404);

      await h.gateway.app.get(DataSource).query(`UPDATE transfers SET updated_at = now() - interval '10 minutes' WHERE reference = $1`, [pending.reference]);
      const scans = h.gateway.app.get(TransfersService, { strict: false });
      // Two scans at once claim disjoint transfers: this one is looked at once.
      expect((await Promise.all([scans.reconcilePending(), scans.reconcilePending()])).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
      await h.sim.idle();
      expect((await api(merchant, 'GET', `/transfers/${pending.reference}`)).body.data.status).toBe('success');
      expect(await events('transfer.success', pending.reference)).toEqual(['success']);
      expect(await balance(merchant)).toMatchObject({ available_balance: 9740 - 1200, reserved_balance: 0 });
    });

    it('a transfer whose callback never comes is settled by a running scheduler process (its reconciliation scan)', async () => {
      const merchant = await fundedMerchant();
      const res = await api(merchant, 'POST', '/transfers', bankForm(2000, SILENT_ACCOUNT));
      const reference = res.body.data.reference as string;
      await h.sim.idle();
      expect((await api(merchant, 'GET', `/transfers/${reference}`)).body.data.status).toBe('pending');
      // The scheduler runs on the real clock: make the transfer as old as the scan wants.
      await h.gateway.app.get(DataSource).query(`UPDATE transfers SET updated_at = now() - interval '10 minutes' WHERE reference = $1`, [reference]);
      // The scan every second instead of every minute.
      const scheduler = await startScheduler(schedulerEnvFor(h, { TRANSFER_RECONCILE_INTERVAL_SECONDS: '1' }));
      try {
        const status = await waitUntil(async () => (await api(merchant, 'GET', `/transfers/${reference}`)).body.data.status, (s) => s !== 'pending', 60_000);
        expect(status).toBe('success');
        expect(scheduler.output()).toMatch(/Asked the provider about \d+ pending transfers/);
      } finally {
        await scheduler.stop();
      }
      expect(await events('transfer.success', reference)).toEqual(['success']);
      expect(await balance(merchant)).toMatchObject({ available_balance: 9740 - 2000, reserved_balance: 0 });
    }, 90_000);

    it('a callback delivered again changes nothing', async () => {
      const merchant = await fundedMerchant();
      const res = await api(merchant, 'POST', '/transfers', bankForm(1000));
      await h.sim.idle();
      const callback = h.sim.callbacks().find((c) => c.event === 'transfer.success' && c.body.includes(res.body.data.reference));
      expect(callback).toBeDefined();
      const rawBody = callback?.body as string;
      const redelivered = await http(h.gateway.baseUrl, 'POST', '/api/provider/webhooks', { rawBody, headers: { 'x-paystack-signature': signCallbackBody(rawBody, h.secrets.live) } });
      expect(redelivered.status).toBe(200);
      expect(await events('transfer.success', res.body.data.reference)).toEqual(['success']);
      expect(await balance(merchant)).toMatchObject({ available_balance: 8740, reserved_balance: 0 });
    });
  });

  describe('reading', () => {
    it("answers transfer_not_found for another developer's transfer, and lists only the tenant's, filtered", async () => {
      const merchant = await fundedMerchant();
      const other = await fundedMerchant();
      const ok = (await api(merchant, 'POST', '/transfers', bankForm(1000))).body.data.reference as string;
      const failed = (await api(merchant, 'POST', '/transfers', bankForm(1000, FAILING_ACCOUNT))).body.data.reference as string;
      await h.sim.idle();
      const missing = await api(other, 'GET', `/transfers/${ok}`);
      expect([missing.status, missing.body.code]).toEqual([404, 'transfer_not_found']);
      expect((await api(other, 'GET', '/transfers')).body.data).toEqual([]);

      expect((await api(merchant, 'GET', '/transfers?status=failed')).body.data.map((t: { reference: string }) => t.reference)).toEqual([failed]);
      const firstPage = await api(merchant, 'GET', '/transfers?limit=1');
      expect(firstPage.body.meta).toMatchObject({ has_more: true, limit: 1 });
      const secondPage = await api(merchant, 'GET', `/transfers?limit=1&cursor=${firstPage.body.meta.next_cursor}`);
      expect(secondPage.body.meta).toMatchObject({ has_more: false, next_cursor: null });
      expect([...firstPage.body.data, ...secondPage.body.data].map((t: { reference: string }) => t.reference).sort()).toEqual([ok, failed].sort());
      expect((await api(merchant, 'GET', '/transfers?recipient=RCP_00000000000000000000')).body.code).toBe('validation_error');
      expect((await api(merchant, 'GET', '/transfers?status=done')).body.code).toBe('validation_error');
    });
  });
});
