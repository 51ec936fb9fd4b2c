import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, customerWithSavedCard, initializePayment, paidPayment, schedulerEnvFor, startPaymentsHarness, type PaymentsHarness } from './support/payments';
import { startScheduler } from './support/scheduler-process';
import { waitFor } from './support/wait';

const HOUR = 3_600;
const DAY = 24 * HOUR;
const TEN_YEARS = 10 * 366 * DAY;

describe('test clocks', () => {
  let h: PaymentsHarness;
  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown) => http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body });
  const advance = (m: Pick<TestMerchant, 'key'>, seconds: unknown) => api(m, 'POST', '/sandbox/clock/advance', { seconds });
  /** The API process's real time (its clock is the harness's ManualClock). */
  const realNow = () => h.gateway.clock.now().getTime();
  const at = (ms: number) => new Date(ms).toISOString();

  beforeAll(async () => {
    // A database of its own: advanced clocks make every scheduler on the database run this file's
    // tenants' rules, and other files' schedulers talk to other simulators.
    h = await startPaymentsHarness({}, { ownDatabase: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('reads, advances (cumulatively) and resets a developer\'s own test time', async () => {
    const m = await createMerchant(h.gateway);
    const fresh = await api(m, 'GET', '/sandbox/clock');
    expect([fresh.status, fresh.body.data]).toEqual([200, { now: at(realNow()), offset_seconds: 0 }]);

    const first = await advance(m, 3 * HOUR);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      now: at(realNow() + 3 * HOUR * 1_000),
      offset_seconds: 3 * HOUR,
      rules_run: { abandoned_payments: 0, scheduled_charges: 0, payment_intent_expiry: 0, dispute_expiry: 0, subscription_billing: 0, invoice_overdue: 0 },
    });
    expect((await advance(m, 2 * DAY)).body.data.offset_seconds).toBe(3 * HOUR + 2 * DAY);
    expect((await api(m, 'GET', '/sandbox/clock')).body.data).toEqual({ now: at(realNow() + (3 * HOUR + 2 * DAY) * 1_000), offset_seconds: 3 * HOUR + 2 * DAY });

    const reset = await api(m, 'POST', '/sandbox/clock/reset');
    expect([reset.status, reset.body.data]).toEqual([200, { now: at(realNow()), offset_seconds: 0 }]);
    expect((await api(m, 'GET', '/sandbox/clock')).body.data.offset_seconds).toBe(0);
  });

  it('refuses a bad advance with a validation error naming `seconds`, and more than ten years ahead in all', async () => {
    const m = await createMerchant(h.gateway);
    for (const seconds of [0, -5, 1.5, '60', null, TEN_YEARS + 1]) {
      const refused = await advance(m, seconds);
      expect([seconds, refused.status, refused.body.code, Object.keys(refused.body.errors ?? {})]).toEqual([seconds, 400, 'validation_error', ['seconds']]);
    }
    const unknownField = await api(m, 'POST', '/sandbox/clock/advance', { seconds: 60, days: 1 });
    expect([unknownField.status, unknownField.body.code]).toEqual([400, 'validation_error']);
    expect((await advance(m, TEN_YEARS - 60)).status).toBe(200);
    const past = await advance(m, 61);
    expect([past.status, past.body.code, Object.keys(past.body.errors)]).toEqual([400, 'validation_error', ['seconds']]);
    expect((await api(m, 'GET', '/sandbox/clock')).body.data.offset_seconds).toBe(TEN_YEARS - 60);
    expect((await advance(m, 60)).body.data.offset_seconds).toBe(TEN_YEARS);
  });

  it('is one developer\'s own: another developer\'s time is untouched, and live keys cannot use it', async () => {
    const m = await createMerchant(h.gateway, { identityVerified: true });
    const other = await createMerchant(h.gateway);
    await advance(m, DAY);
    expect((await api(other, 'GET', '/sandbox/clock')).body.data.offset_seconds).toBe(0);
    const live = await m.issueKey({ mode: 'live' });
    for (const [method, path] of [['GET', '/sandbox/clock'], ['POST', '/sandbox/clock/advance'], ['POST', '/sandbox/clock/reset']] as const) {
      const refused = await api({ key: live.key }, method, path, method === 'POST' && path.endsWith('advance') ? { seconds: 60 } : undefined);
      expect([path, refused.status, refused.body.code]).toEqual([path, 403, 'test_mode_required']);
    }
    expect((await api(m, 'GET', '/sandbox/clock')).body.data.offset_seconds).toBe(DAY);
    // A checkout is created at its own tenant's time: the other developer's and live mode's are real time.
    const createdAt = async (key: string) => {
      const opened = await initializePayment(h.gateway, { key }, { amount: 1_000, email: buyer() });
      return (await api({ key }, 'GET', `/payments/${opened.body.data.reference}`)).body.data.created_at;
    };
    expect(await createdAt(m.key)).toBe(at(realNow() + DAY * 1_000));
    expect(await createdAt(other.key)).toBe(at(realNow()));
    expect(await createdAt(live.key)).toBe(at(realNow()));
  });

  it('makes the rules follow it: a scheduled charge is charged, a checkout abandoned, a hold expired, a dispute lost', async () => {
    const { merchant, email, code } = await customerWithSavedCard(h);
    // Funds for the dispute's hold.
    expect((await paidPayment(h.gateway, merchant, { amount: 50_000, email: buyer() })).body.data.status).toBe('success');
    const scheduled = (await initializePayment(h.gateway, merchant, { amount: 3_000, email, authorization_code: code, charge_at: at(realNow() + 2 * DAY * 1_000) })).body.data.reference;
    const pending = (await initializePayment(h.gateway, merchant, { amount: 1_500, email: buyer() })).body.data.reference;
    const intent = (await api(merchant, 'POST', '/payment-intents', { capture_method: 'manual', amount: 2_000, email })).body.data.intent_reference;
    const disputedPayment = (await paidPayment(h.gateway, merchant, { amount: 4_000, email: buyer() })).body.data.reference;
    const dispute = (await api(merchant, 'POST', `/sandbox/payments/${disputedPayment}/dispute`)).body.data.reference;
    await h.sim.idle();

    // One day: only the checkout's 24 hours have passed.
    const oneDay = await advance(merchant, DAY + 60);
    expect(oneDay.body.data.rules_run).toEqual({ abandoned_payments: 1, scheduled_charges: 0, payment_intent_expiry: 0, dispute_expiry: 0, subscription_billing: 0, invoice_overdue: 0 });
    expect((await api(merchant, 'GET', `/payments/${pending}`)).body.data.status).toBe('abandoned');
    expect((await api(merchant, 'GET', `/payments/${scheduled}`)).body.data.status).toBe('scheduled');

    // Eight days: the charge, the dispute's deadline (the simulator gives two days) and the 7-day hold.
    const eightDays = await advance(merchant, 7 * DAY);
    expect(eightDays.body.data.rules_run).toEqual({ abandoned_payments: 0, scheduled_charges: 1, payment_intent_expiry: 1, dispute_expiry: 1, subscription_billing: 0, invoice_overdue: 0 });
    expect((await api(merchant, 'GET', `/payments/${scheduled}`)).body.data.status).toBe('success');
    expect((await api(merchant, 'GET', `/payment-intents/${intent}`)).body.data.status).toBe('expired');
    expect((await api(merchant, 'GET', `/disputes/${dispute}`)).body.data.status).toBe('lost');
    // Each once: a second advance finds nothing left to do.
    expect((await advance(merchant, 60)).body.data.rules_run).toEqual({ abandoned_payments: 0, scheduled_charges: 0, payment_intent_expiry: 0, dispute_expiry: 0, subscription_billing: 0, invoice_overdue: 0 });
  });

  it('times new objects on the tenant\'s clock: a hold placed after advancing still has its 7 days, charge_at counts from the clock', async () => {
    const { merchant, email, code } = await customerWithSavedCard(h);
    await advance(merchant, 30 * DAY);
    const tenantNow = realNow() + 30 * DAY * 1_000;
    const hold = await api(merchant, 'POST', '/payment-intents', { capture_method: 'manual', amount: 2_000, email });
    expect(new Date(hold.body.data.expires_at).getTime()).toBe(tenantNow + 7 * DAY * 1_000);
    expect((await advance(merchant, 6 * DAY)).body.data.rules_run.payment_intent_expiry).toBe(0);
    expect((await api(merchant, 'POST', `/payment-intents/${hold.body.data.intent_reference}/capture`)).body.data.status).toBe('succeeded');

    // A charge_at in real time's future but the clock's past is refused like any past date.
    const stale = await initializePayment(h.gateway, merchant, { amount: 3_000, email, authorization_code: code, charge_at: at(realNow() + DAY * 1_000) });
    expect([stale.status, stale.body.code]).toEqual([400, 'invalid_charge_at']);
    // And a checkout opened now is created at the clock's time, so not abandoned by the hours already run ahead.
    const pending = (await initializePayment(h.gateway, merchant, { amount: 1_500, email: buyer() })).body.data.reference;
    expect((await api(merchant, 'GET', `/payments/${pending}`)).body.data.created_at).toBe((await api(merchant, 'GET', '/sandbox/clock')).body.data.now);
    expect((await advance(merchant, HOUR)).body.data.rules_run.abandoned_payments).toBe(0);
    expect((await api(merchant, 'GET', `/payments/${pending}`)).body.data.status).toBe('pending');
  });

  it('is followed by the scheduler between advances, for that developer\'s test mode only', async () => {
    const { merchant, email, code } = await customerWithSavedCard(h, undefined, await createMerchant(h.gateway, { identityVerified: true }));
    // The same developer's live checkout, older than any test one: live mode never follows the clock.
    const live = await merchant.issueKey({ mode: 'live' });
    const livePending = await initializePayment(h.gateway, { key: live.key }, { amount: 1_500, email: buyer() });
    expect(livePending.status).toBe(201);
    const testPending = (await initializePayment(h.gateway, merchant, { amount: 1_500, email: buyer() })).body.data.reference;
    const chargeAt = realNow() + 2 * DAY * 1_000;
    const scheduled = (await initializePayment(h.gateway, merchant, { amount: 3_000, email, authorization_code: code, charge_at: at(chargeAt) })).body.data.reference;
    // Ten seconds short of charge_at: the advance itself charges nothing; the scheduler, whose
    // time runs on, charges it within those ten seconds of real time.
    const advanced = await advance(merchant, 2 * DAY - 10);
    expect(advanced.body.data.rules_run).toMatchObject({ scheduled_charges: 0, abandoned_payments: 1 });
    const scheduler = await startScheduler(schedulerEnvFor(h, { TEST_CLOCK_SCAN_INTERVAL_SECONDS: '1' }));
    try {
      await waitFor(async () => (await api(merchant, 'GET', `/payments/${scheduled}`)).body.data.status === 'success', { timeoutMs: 90_000, what: 'the scheduled charge' });
    } finally {
      await scheduler.stop();
    }
    expect((await api(merchant, 'GET', `/payments/${testPending}`)).body.data.status).toBe('abandoned');
    expect((await api({ key: live.key }, 'GET', `/payments/${livePending.body.data.reference}`)).body.data.status).toBe('pending');
  });
});
