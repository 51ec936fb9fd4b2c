import { DataSource } from 'typeorm';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { customerWithSavedCard, eventsFor, initializePayment, schedulerEnvFor, startPaymentsHarness, type PaymentsHarness } from './support/payments';
import { type SchedulerProcess, startScheduler } from './support/scheduler-process';

describe('scheduled charges of saved cards', () => {
  let h: PaymentsHarness;
  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body, headers });
  const available = async (m: TestMerchant) => (await api(m, 'GET', '/wallet/balance')).body.data.available_balance;
  const events = (name: string, reference: string) => eventsFor(h, name, reference);
  /** The merchant's ledger entries for one payment, as sorted [type, amount] pairs. */
  const ledgerOf = async (m: TestMerchant, reference: string) =>
    ((await api(m, 'GET', '/wallet/ledger?limit=100')).body.data as Array<{ type: string; amount: number; reference: string }>)
      .filter((e) => e.reference === reference)
      .map((e) => [e.type, e.amount])
      .sort();

  const inMinutes = (minutes: number) => new Date(h.gateway.clock.now().getTime() + minutes * 60_000).toISOString();

  beforeAll(async () => {
    h = await startPaymentsHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('creates a scheduled payment without a checkout, and cancels it before the trigger', async () => {
    const { merchant, email, code } = await customerWithSavedCard(h);
    const init = await initializePayment(h.gateway, merchant, { amount: 3000, email, authorization_code: code, charge_at: inMinutes(2) });
    expect(init.body.data).toMatchObject({ status: 'scheduled', authorization_url: null });
    const ref = init.body.data.reference;
    const cancelled = await api(merchant, 'DELETE', `/payments/${ref}/schedule`);
    expect([cancelled.status, cancelled.body.data.status]).toEqual([200, 'cancelled']);
    expect((await api(merchant, 'DELETE', `/payments/${ref}/schedule`)).body.data.status).toBe('cancelled');
    const scan = await api(merchant, 'POST', '/sandbox/scans/scheduled-charges/run', { as_of: inMinutes(5) });
    expect(scan.body.data).toEqual({ scan: 'scheduled-charges', affected: 0 });
    expect((await api(merchant, 'GET', `/payments/${ref}`)).body.data.status).toBe('cancelled');
  });

  it('charges a due payment once (wallet credited, payment.success), after which it cannot be cancelled', async () => {
    const { merchant, email, code } = await customerWithSavedCard(h);
    const before = await available(merchant);
    const ref = (await initializePayment(h.gateway, merchant, { amount: 3000, email, authorization_code: code, charge_at: inMinutes(2) })).body.data.reference;
    expect((await api(merchant, 'POST', '/sandbox/scans/scheduled-charges/run', { as_of: inMinutes(1) })).body.data.affected).toBe(0);
    expect((await api(merchant, 'POST', '/sandbox/scans/scheduled-charges/run', { as_of: inMinutes(3) })).body.data.affected).toBe(1);
    expect((await api(merchant, 'GET', `/payments/${ref}`)).body.data).toMatchObject({ status: 'success', net_amount: 2845 });
    expect(await available(merchant)).toBeCloseTo(before + 2845, 2);
    expect(await events('payment.success', ref)).toBe(1);
    // 3,000 − 10 − (45 + 100)
    expect(await ledgerOf(merchant, ref)).toEqual([
      ['credit', 3000],
      ['fee', 10],
      ['fee', 145],
    ]);
    const late = await api(merchant, 'DELETE', `/payments/${ref}/schedule`);
    expect([late.status, late.body.code]).toEqual([409, 'schedule_already_triggered']);
  });

  it('charges one due payment once when three scans run at the same moment in one API instance (the sandbox scan)', async () => {
    const { merchant, email, code } = await customerWithSavedCard(h);
    const ref = (await initializePayment(h.gateway, merchant, { amount: 2000, email, authorization_code: code, charge_at: inMinutes(2) })).body.data.reference;
    const scans = await Promise.all([1, 2, 3].map(() => api(merchant, 'POST', '/sandbox/scans/scheduled-charges/run', { as_of: inMinutes(3) })));
    expect(scans.map((s) => s.body.data.affected).sort()).toEqual([0, 0, 1]);
    const ledger = (await api(merchant, 'GET', `/wallet/ledger?type=credit`)).body.data.filter((e: { reference: string }) => e.reference === ref);
    expect(ledger).toHaveLength(1);
    // 2,000 − 10 − 30
    expect(await ledgerOf(merchant, ref)).toEqual([
      ['credit', 2000],
      ['fee', 10],
      ['fee', 30],
    ]);
    expect(await events('payment.success', ref)).toBe(1);
  });

  it('charges a due payment once with two real scheduler processes running their scan', async () => {
    const { merchant, email, code } = await customerWithSavedCard(h);
    const ref = (await initializePayment(h.gateway, merchant, { amount: 2500, email, authorization_code: code, charge_at: inMinutes(2) })).body.data.reference;
    // The schedulers run on the real clock: make the payment due now, as if its two minutes had passed.
    await h.gateway.app.get(DataSource).query(`UPDATE payments SET charge_at = now() - interval '1 second' WHERE reference = $1`, [ref]);
    // Their scans every second instead of every minute, so both run many times while it is due.
    const env = schedulerEnvFor(h, { SCHEDULED_CHARGES_INTERVAL_SECONDS: '1' });
    const schedulers: SchedulerProcess[] = await Promise.all([startScheduler(env), startScheduler(env)]);
    try {
      const deadline = Date.now() + 30_000;
      let status = 'scheduled';
      while (status !== 'success' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 500));
        status = (await api(merchant, 'GET', `/payments/${ref}`)).body.data.status;
      }
      expect(status).toBe('success');
      // Counted once both schedulers have stopped: no scan of either can still be on its way.
      await Promise.all(schedulers.map((s) => s.stop()));
      await h.sim.idle();
      const credits = (await api(merchant, 'GET', '/wallet/ledger?type=credit')).body.data.filter((e: { reference: string }) => e.reference === ref);
      expect(credits).toHaveLength(1);
      // 2,500 − 10 − (37.50 + 100)
      expect(await ledgerOf(merchant, ref)).toEqual([
        ['credit', 2500],
        ['fee', 10],
        ['fee', 137.5],
      ]);
      expect(await events('payment.success', ref)).toBe(1);
      // At the provider the reference names one successful charge of 2,500 (it refuses a second charge under it).
      const charge = await http(h.sim.url() as string, 'GET', `/transaction/verify/${ref}`, { token: h.secrets.test });
      expect(charge.body.data).toMatchObject({ reference: ref, status: 'success', amount: 250000 });
    } finally {
      await Promise.all(schedulers.map((s) => s.stop()));
    }
  }, 90_000);

  it('ends a cancel racing the trigger as exactly one of the two', async () => {
    for (let i = 0; i < 5; i++) {
      const { merchant, email, code } = await customerWithSavedCard(h);
      const ref = (await initializePayment(h.gateway, merchant, { amount: 1000, email, authorization_code: code, charge_at: inMinutes(2) })).body.data.reference;
      const [cancel, scan] = await Promise.all([
        api(merchant, 'DELETE', `/payments/${ref}/schedule`),
        api(merchant, 'POST', '/sandbox/scans/scheduled-charges/run', { as_of: inMinutes(3) }),
      ]);
      const final = (await api(merchant, 'GET', `/payments/${ref}`)).body.data.status;
      if (cancel.status === 200) expect([final, scan.body.data.affected]).toEqual(['cancelled', 0]);
      else expect([cancel.body.code, final, scan.body.data.affected]).toEqual(['schedule_already_triggered', 'success', 1]);
    }
  });

  it('refuses to cancel a payment that was never scheduled, and hides other tenants', async () => {
    const { merchant, email } = await customerWithSavedCard(h);
    const plain = (await initializePayment(h.gateway, merchant, { amount: 1000, email })).body.data.reference;
    const res = await api(merchant, 'DELETE', `/payments/${plain}/schedule`);
    expect([res.status, res.body.code]).toEqual([409, 'invalid_state']);
    const other = await createMerchant(h.gateway);
    const hidden = await api(other, 'DELETE', `/payments/${plain}/schedule`);
    expect([hidden.status, hidden.body.code]).toEqual([404, 'payment_not_found']);
  });
  it('records a card declined at the trigger as failed with payment.failed', async () => {
    // This test card pays on checkout but is refused on later charges (insufficient funds).
    const { merchant, email, code } = await customerWithSavedCard(h, '5399838383838381');
    const before = await available(merchant);
    const ref = (await initializePayment(h.gateway, merchant, { amount: 2500, email, authorization_code: code, charge_at: inMinutes(2) })).body.data.reference;
    expect((await api(merchant, 'POST', '/sandbox/scans/scheduled-charges/run', { as_of: inMinutes(3) })).body.data.affected).toBe(1);
    expect((await api(merchant, 'GET', `/payments/${ref}`)).body.data).toMatchObject({ status: 'failed', net_amount: null });
    expect(await events('payment.failed', ref)).toBe(1);
    expect(await available(merchant)).toBe(before);
  });

  it('resumes a claim left by a crashed scheduler once it is stale, charging once', async () => {
    const { merchant, email, code } = await customerWithSavedCard(h);
    const ref = (await initializePayment(h.gateway, merchant, { amount: 4000, email, authorization_code: code, charge_at: inMinutes(2) })).body.data.reference;
    // A scheduler claimed it at the due time and died before calling the provider.
    await h.gateway.app.get(DataSource).query(`UPDATE payments SET triggered_at = $2 WHERE reference = $1`, [ref, inMinutes(2)]);
    const cancel = await api(merchant, 'DELETE', `/payments/${ref}/schedule`);
    expect([cancel.status, cancel.body.code]).toEqual([409, 'schedule_already_triggered']);
    expect((await api(merchant, 'POST', '/sandbox/scans/scheduled-charges/run', { as_of: inMinutes(3) })).body.data.affected).toBe(0);
    expect((await api(merchant, 'GET', `/payments/${ref}`)).body.data.status).toBe('scheduled');
    // Five minutes after the claim it is taken over, with the same reference.
    expect((await api(merchant, 'POST', '/sandbox/scans/scheduled-charges/run', { as_of: inMinutes(8) })).body.data.affected).toBe(1);
    expect((await api(merchant, 'GET', `/payments/${ref}`)).body.data.status).toBe('success');
    expect((await api(merchant, 'POST', '/sandbox/scans/scheduled-charges/run', { as_of: inMinutes(20) })).body.data.affected).toBe(0);
    expect(await events('payment.success', ref)).toBe(1);
    // 4,000 − 10 − (60 + 100)
    expect(await ledgerOf(merchant, ref)).toEqual([
      ['credit', 4000],
      ['fee', 10],
      ['fee', 160],
    ]);
  });

  describe('a triggered charge whose outcome the scheduler did not record (it died after the provider charged)', () => {
    /** The scheduler claimed the payment at its due time and charged the card at the provider, then died. */
    async function chargedByDeadScheduler(reference: string, options: { callback: boolean }): Promise<void> {
      const db = h.gateway.app.get(DataSource);
      await db.query(`UPDATE payments SET triggered_at = $2 WHERE reference = $1`, [reference, inMinutes(2)]);
      const [row] = await db.query(
        `SELECT a.provider_authorization_code AS code, p.email, p.amount FROM payments p JOIN payment_authorizations a ON a.id = p.authorization_id WHERE p.reference = $1`,
        [reference],
      );
      if (!options.callback) h.sim.setWebhookUrl(undefined);
      try {
        const charged = await http(h.sim.url() as string, 'POST', '/transaction/charge_authorization', {
          token: h.secrets.test,
          body: { authorization_code: row.code, email: row.email, amount: Number(String(row.amount).replace('.', '')), reference },
        });
        expect(charged.body.data.status).toBe('success');
        await h.sim.idle();
      } finally {
        h.sim.setWebhookUrl(`${h.gateway.baseUrl}/api/provider/webhooks`);
      }
    }

    it("is settled by the provider's charge callback, crediting once", async () => {
      const { merchant, email, code } = await customerWithSavedCard(h);
      const before = await available(merchant);
      const ref = (await initializePayment(h.gateway, merchant, { amount: 3000, email, authorization_code: code, charge_at: inMinutes(2) })).body.data.reference;
      await chargedByDeadScheduler(ref, { callback: true });
      expect((await api(merchant, 'GET', `/payments/${ref}`)).body.data).toMatchObject({ status: 'success', net_amount: 2845 });
      expect(await available(merchant)).toBeCloseTo(before + 2845, 2);
      // The stale claim is not charged again, and a verify changes nothing.
      expect((await api(merchant, 'POST', '/sandbox/scans/scheduled-charges/run', { as_of: inMinutes(20) })).body.data.affected).toBe(0);
      expect((await api(merchant, 'POST', '/payments/verify', { reference: ref })).body.data.status).toBe('success');
      expect(await events('payment.success', ref)).toBe(1);
      expect(await available(merchant)).toBeCloseTo(before + 2845, 2);
      expect(await ledgerOf(merchant, ref)).toEqual([
        ['credit', 3000],
        ['fee', 10],
        ['fee', 145],
      ]);
    });

    it('is settled by verify (no callback came), crediting once; an untriggered schedule is not asked about', async () => {
      const { merchant, email, code } = await customerWithSavedCard(h);
      const ref = (await initializePayment(h.gateway, merchant, { amount: 2000, email, authorization_code: code, charge_at: inMinutes(2) })).body.data.reference;
      expect((await api(merchant, 'POST', '/payments/verify', { reference: ref })).body.data.status).toBe('scheduled');
      await chargedByDeadScheduler(ref, { callback: false });
      expect((await api(merchant, 'GET', `/payments/${ref}`)).body.data.status).toBe('scheduled');
      const verified = await Promise.all([1, 2, 3].map(() => api(merchant, 'POST', '/payments/verify', { reference: ref })));
      expect(verified.map((v) => v.body.data.status)).toEqual(['success', 'success', 'success']);
      expect(await events('payment.success', ref)).toBe(1);
      // 2,000 − 10 − 30
      expect(await ledgerOf(merchant, ref)).toEqual([
        ['credit', 2000],
        ['fee', 10],
        ['fee', 30],
      ]);
      expect((await api(merchant, 'GET', '/wallet/balance')).body.data.available_balance).toBe(1960 + 975);
    });

    it('is settled when the stale claim is taken over: the provider refuses the reused reference, the charge is looked up, not repeated', async () => {
      const { merchant, email, code } = await customerWithSavedCard(h);
      const before = await available(merchant);
      const ref = (await initializePayment(h.gateway, merchant, { amount: 4000, email, authorization_code: code, charge_at: inMinutes(2) })).body.data.reference;
      await chargedByDeadScheduler(ref, { callback: false });
      expect((await api(merchant, 'POST', '/sandbox/scans/scheduled-charges/run', { as_of: inMinutes(8) })).body.data.affected).toBe(1);
      // 4,000 − 10 − (60 + 100)
      expect((await api(merchant, 'GET', `/payments/${ref}`)).body.data).toMatchObject({ status: 'success', net_amount: 3830 });
      expect(await available(merchant)).toBeCloseTo(before + 3830, 2);
      expect(await events('payment.success', ref)).toBe(1);
      expect(await ledgerOf(merchant, ref)).toEqual([
        ['credit', 4000],
        ['fee', 10],
        ['fee', 160],
      ]);
    });
  });

  it('scans only the calling developer and mode from the sandbox', async () => {
    const { merchant, email, code } = await customerWithSavedCard(h);
    const other = await createMerchant(h.gateway);
    const ref = (await initializePayment(h.gateway, merchant, { amount: 1200, email, authorization_code: code, charge_at: inMinutes(2) })).body.data.reference;
    expect((await api(other, 'POST', '/sandbox/scans/scheduled-charges/run', { as_of: inMinutes(3) })).body.data.affected).toBe(0);
    expect((await api(merchant, 'GET', `/payments/${ref}`)).body.data.status).toBe('scheduled');
  });
});
