import type { DeveloperContext } from '@gateway/platform';
import { SubscriptionBillingService } from '@gateway/domain/subscriptions';
import { verifySignatureHeader } from '@gateway/domain/webhooks';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, initializePayment, schedulerEnvFor, startPaymentsHarness, type PaymentsHarness } from './support/payments';
import { startScheduler } from './support/scheduler-process';
import { waitFor } from './support/wait';
import { WebhookReceiver } from './support/webhook-receiver';

const DAY_MS = 24 * 60 * 60 * 1_000;
const ENCRYPTION_KEYS = `k1:${randomBytes(32).toString('base64')}`;
/** Documented simulator cards: later charges succeed / later charges fail with "Insufficient Funds". */
const GOOD_CARD = '4084084084084081';
const CARD_THAT_FAILS_LATER = '5399838383838381';

/**
 * Plans, subscriptions and their billing over HTTP against the simulator. Billing is driven by
 * calling the billing scan for the merchant's tenant as of a later time (what the scheduler's cron
 * and the test-clock orchestrator do), so a year of renewals takes a second.
 */
describe('subscriptions', () => {
  let h: PaymentsHarness;
  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown) => http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body });
  const ctxOf = (m: TestMerchant): DeveloperContext => ({ developerId: m.developerId, mode: 'test' });
  /** One run of the billing scan for this merchant at `asOf`: how many subscriptions it processed. */
  const bill = (m: TestMerchant, asOf: Date | string) => h.gateway.app.get(SubscriptionBillingService, { strict: false }).billDue(100, ctxOf(m), new Date(asOf));
  const db = () => h.gateway.app.get(DataSource);
  const eventsOf = async (name: string, subscriptionId: string) =>
    Number((await db().query(`SELECT count(*)::int AS n FROM events WHERE name = $1 AND data->>'id' = $2`, [name, subscriptionId]))[0].n);
  /** The payments made for a subscription, by period and attempt, as `<period>:<status>`. */
  const paymentsOf = async (m: TestMerchant, subscriptionId: string) =>
    ((await api(m, 'GET', '/payments?limit=100')).body.data as Array<{ status: string; metadata: { subscription_id?: string; period: number; attempt: number } }>)
      .filter((p) => p.metadata.subscription_id === subscriptionId)
      .sort((a, b) => a.metadata.period - b.metadata.period || a.metadata.attempt - b.metadata.attempt)
      .map((p) => `${p.metadata.period}:${p.status}`);
  const at = (base: string, days: number) => new Date(new Date(base).getTime() + days * DAY_MS);

  /** A customer of `m` who paid once with `card` at checkout, leaving a saved card. */
  async function payingCustomer(m: TestMerchant, card = GOOD_CARD): Promise<{ reference: string; code: string }> {
    const init = await initializePayment(h.gateway, m, { amount: 1000, email: buyer() });
    await http(h.sim.url() as string, 'POST', `/sim/transactions/${init.body.data.reference}/complete`, { token: h.secrets.test, body: { card } });
    const verified = await api(m, 'POST', '/payments/verify', { reference: init.body.data.reference });
    expect(verified.body.data.status).toBe('success');
    return { reference: verified.body.data.customer_reference, code: verified.body.data.authorization.authorization_code };
  }

  async function plan(m: TestMerchant, fields: Record<string, unknown> = {}): Promise<{ id: string }> {
    const res = await api(m, 'POST', '/subscriptions/plans', { name: 'Pro', amount: 5000, currency: 'NGN', interval: 'monthly', trial_period_days: 0, ...fields });
    expect(res.status).toBe(201);
    return res.body.data;
  }

  async function subscribe(m: TestMerchant, planFields: Record<string, unknown> = {}, card = GOOD_CARD) {
    const customer = await payingCustomer(m, card);
    const { id: planId } = await plan(m, planFields);
    const res = await api(m, 'POST', '/subscriptions', { customer_reference: customer.reference, plan_id: planId, authorization_code: customer.code });
    expect(res.status).toBe(201);
    return { customer, planId, subscription: res.body.data };
  }

  beforeAll(async () => {
    // A database of its own: the billing scan and the scheduler started below must not bill other files' subscriptions.
    h = await startPaymentsHarness({ ENCRYPTION_KEYS }, { ownDatabase: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  describe('plans', () => {
    it('creates a plan with its fields, gets, lists (with filters), renames and archives it', async () => {
      const m = await createMerchant(h.gateway);
      const created = await api(m, 'POST', '/subscriptions/plans', { name: 'Gold', amount: 12500.5, currency: 'USD', interval: 'yearly', trial_period_days: 14 });
      expect(created.status).toBe(201);
      expect(created.body.data).toEqual({
        id: expect.stringMatching(/^PLN_[0-9a-f]{20}$/),
        name: 'Gold',
        amount: 12500.5,
        currency: 'USD',
        interval: 'yearly',
        trial_period_days: 14,
        active: true,
        archived_at: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const id = created.body.data.id as string;
      expect((await api(m, 'GET', `/subscriptions/plans/${id}/`)).body.data).toEqual(created.body.data);
      const defaults = await api(m, 'POST', '/subscriptions/plans', { name: 'Basic', amount: 100, interval: 'daily' });
      expect(defaults.body.data).toMatchObject({ currency: 'NGN', trial_period_days: 0, interval: 'daily' });

      expect((await api(m, 'GET', '/subscriptions/plans')).body.data.map((p: { id: string }) => p.id).sort()).toEqual([defaults.body.data.id, id].sort());
      expect((await api(m, 'GET', '/subscriptions/plans?currency=USD')).body.data.map((p: { id: string }) => p.id)).toEqual([id]);
      expect((await api(m, 'GET', '/subscriptions/plans?interval=daily')).body.data.map((p: { id: string }) => p.id)).toEqual([defaults.body.data.id]);

      const renamed = await api(m, 'PATCH', `/subscriptions/plans/${id}`, { name: 'Gold yearly' });
      expect(renamed.body.data).toMatchObject({ id, name: 'Gold yearly', active: true, amount: 12500.5 });
      const archived = await api(m, 'POST', `/subscriptions/plans/${id}/archive`);
      expect(archived.body.data).toMatchObject({ active: false, archived_at: expect.any(String) });
      expect((await api(m, 'GET', '/subscriptions/plans?active=false')).body.data.map((p: { id: string }) => p.id)).toEqual([id]);
      const reopened = await api(m, 'PATCH', `/subscriptions/plans/${id}`, { active: true });
      expect(reopened.body.data).toMatchObject({ active: true, archived_at: null });

      for (const body of [{}, { amount: 1 }, { interval: 'daily' }]) {
        const refused = await api(m, 'PATCH', `/subscriptions/plans/${id}`, body);
        expect([JSON.stringify(body), refused.status, refused.body.code]).toEqual([JSON.stringify(body), 400, 'validation_error']);
      }
    });

    it('validates every field of a new plan with a clear error naming it', async () => {
      const m = await createMerchant(h.gateway);
      const valid = { name: 'Pro', amount: 5000, currency: 'NGN', interval: 'monthly', trial_period_days: 7 };
      const cases: Array<[Record<string, unknown>, number, string, string | null]> = [
        [{ ...valid, name: undefined }, 400, 'validation_error', 'name'],
        [{ ...valid, name: '' }, 400, 'validation_error', 'name'],
        [{ ...valid, name: 'x'.repeat(101) }, 400, 'validation_error', 'name'],
        [{ ...valid, amount: undefined }, 400, 'validation_error', 'amount'],
        [{ ...valid, amount: '5000' }, 400, 'validation_error', 'amount'],
        [{ ...valid, amount: 0 }, 400, 'validation_error', 'amount'],
        [{ ...valid, amount: -100 }, 400, 'validation_error', 'amount'],
        [{ ...valid, amount: 100.123 }, 400, 'validation_error', 'amount'],
        [{ ...valid, amount: 99.99 }, 400, 'validation_error', 'amount'], // below the NGN minimum
        [{ ...valid, amount: 100_000_000.01 }, 400, 'validation_error', 'amount'],
        [{ ...valid, currency: 'EUR' }, 400, 'invalid_currency', null],
        [{ ...valid, currency: 5 }, 400, 'validation_error', 'currency'],
        [{ ...valid, interval: undefined }, 400, 'validation_error', 'interval'],
        [{ ...valid, interval: 'hourly' }, 400, 'validation_error', 'interval'],
        [{ ...valid, trial_period_days: -1 }, 400, 'validation_error', 'trial_period_days'],
        [{ ...valid, trial_period_days: 1.5 }, 400, 'validation_error', 'trial_period_days'],
        [{ ...valid, trial_period_days: 731 }, 400, 'validation_error', 'trial_period_days'],
        [{ ...valid, trial_period_days: '7' }, 400, 'validation_error', 'trial_period_days'],
        [{ ...valid, setup_fee: 10 }, 400, 'validation_error', null],
      ];
      for (const [body, status, code, field] of cases) {
        const res = await api(m, 'POST', '/subscriptions/plans', body);
        expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), status, code]);
        if (field) expect([JSON.stringify(body), Object.keys(res.body.errors ?? {})]).toEqual([JSON.stringify(body), expect.arrayContaining([field])]);
      }
      expect((await api(m, 'GET', '/subscriptions/plans')).body.data).toEqual([]);
      expect((await api(m, 'POST', '/subscriptions/plans', valid)).status).toBe(201);
    });
  });

  describe('subscribing', () => {
    it("needs the customer's own saved card: another customer's code, an unknown one or a non-reusable one is 400 naming authorization_code", async () => {
      const m = await createMerchant(h.gateway);
      const ada = await payingCustomer(m);
      const bob = await payingCustomer(m);
      const nonReusable = await payingCustomer(m, '5060990580000212');
      const { id: planId } = await plan(m);
      for (const [customer, code] of [
        [ada.reference, bob.code],
        [ada.reference, 'AUTH_00000000000000000000'],
        [nonReusable.reference, nonReusable.code],
      ]) {
        const res = await api(m, 'POST', '/subscriptions', { customer_reference: customer, plan_id: planId, authorization_code: code });
        expect([res.status, res.body.code, Object.keys(res.body.errors)]).toEqual([400, 'validation_error', ['authorization_code']]);
      }
      const missing = await api(m, 'POST', '/subscriptions', { customer_reference: 'CUS_000000000000000000', plan_id: planId, authorization_code: ada.code });
      expect([missing.status, missing.body.code]).toEqual([404, 'customer_not_found']);
      const noPlan = await api(m, 'POST', '/subscriptions', { customer_reference: ada.reference, plan_id: 'PLN_00000000000000000000', authorization_code: ada.code });
      expect([noPlan.status, noPlan.body.code]).toEqual([404, 'plan_not_found']);
      const extra = await api(m, 'POST', '/subscriptions', { customer_reference: ada.reference, plan_id: planId, authorization_code: ada.code, quantity: 2 });
      expect([extra.status, extra.body.code]).toEqual([400, 'validation_error']);
      expect((await api(m, 'GET', '/subscriptions')).body.data).toEqual([]);
      expect(await paymentsOf(m, 'none')).toEqual([]);

      const own = await api(m, 'POST', '/subscriptions', { customer_reference: ada.reference, plan_id: planId, authorization_code: ada.code });
      expect(own.status).toBe(201);
    });

    it('charges a plan without a trial at once: active, the first period current, the next one due at its end', async () => {
      const m = await createMerchant(h.gateway);
      const { customer, planId, subscription: s } = await subscribe(m, { amount: 2500.75 });
      expect(s).toEqual({
        id: expect.stringMatching(/^SUB_[0-9a-f]{20}$/),
        subscription_id: s.id,
        customer_reference: customer.reference,
        plan_id: planId,
        authorization_code: customer.code,
        status: 'active',
        amount: 2500.75,
        currency: 'NGN',
        interval: 'monthly',
        trial_end_at: null,
        billing_anchor_at: expect.any(String),
        current_period_start: s.billing_anchor_at,
        current_period_end: s.next_billing_at,
        next_billing_at: expect.any(String),
        failed_attempts: 0,
        latest_charge: { payment_reference: expect.stringMatching(/^PAY-/), status: 'success' },
        paused_at: null,
        cancelled_at: null,
        cancellation_reason: null,
        created_at: expect.any(String),
      });
      const payment = await api(m, 'GET', `/payments/${s.latest_charge.payment_reference}`);
      expect(payment.body.data).toMatchObject({ status: 'success', amount: 2500.75, net_amount: expect.any(Number), currency: 'NGN' });
      expect(await paymentsOf(m, s.id)).toEqual(['1:success']);
      expect(await eventsOf('subscription.charged', s.id)).toBe(1);
      expect((await api(m, 'GET', `/subscriptions/${s.id}`)).body.data).toEqual(s);
    });

    it('an archived plan takes no new subscriptions (409 plan_archived) while existing ones keep billing', async () => {
      const m = await createMerchant(h.gateway);
      const { customer, planId, subscription: s } = await subscribe(m);
      expect((await api(m, 'POST', `/subscriptions/plans/${planId}/archive`)).body.data.active).toBe(false);
      const refused = await api(m, 'POST', '/subscriptions', { customer_reference: customer.reference, plan_id: planId, authorization_code: customer.code });
      expect([refused.status, refused.body.code]).toEqual([409, 'plan_archived']);
      expect(await bill(m, s.next_billing_at)).toBe(1);
      expect(await paymentsOf(m, s.id)).toEqual(['1:success', '2:success']);
    });
  });

  describe('billing', () => {
    it('trial → first charge at the trial end → renewals, exactly one charge per period however often and concurrently the scan runs', async () => {
      const m = await createMerchant(h.gateway);
      const { subscription: s } = await subscribe(m, { amount: 3000, interval: 'weekly', trial_period_days: 7 });
      expect(s).toMatchObject({ status: 'trialing', latest_charge: null, failed_attempts: 0 });
      expect(new Date(s.trial_end_at).getTime() - new Date(s.current_period_start).getTime()).toBe(7 * DAY_MS);
      expect([s.next_billing_at, s.billing_anchor_at, s.current_period_end]).toEqual([s.trial_end_at, s.trial_end_at, s.trial_end_at]);
      expect(await paymentsOf(m, s.id)).toEqual([]);

      expect(await bill(m, at(s.trial_end_at, -0.01))).toBe(0); // still in the trial
      const firstRuns = await Promise.all(Array.from({ length: 5 }, () => bill(m, s.trial_end_at)));
      expect(firstRuns.reduce((a, b) => a + b, 0)).toBe(1);
      const paid = (await api(m, 'GET', `/subscriptions/${s.id}`)).body.data;
      expect(paid).toMatchObject({ status: 'active', current_period_start: s.trial_end_at, current_period_end: at(s.trial_end_at, 7).toISOString(), next_billing_at: at(s.trial_end_at, 7).toISOString() });
      expect(paid.latest_charge.status).toBe('success');
      expect(await bill(m, at(s.trial_end_at, 6.99))).toBe(0); // the second period is not due yet

      // Three weeks later, caught up one period per run, with concurrent scans: periods 2, 3 and 4, once each.
      const later = at(s.trial_end_at, 21);
      let processed = 0;
      for (let i = 0; i < 5; i++) processed += (await Promise.all([bill(m, later), bill(m, later), bill(m, later)])).reduce((a, b) => a + b, 0);
      expect(processed).toBe(3);
      expect(await paymentsOf(m, s.id)).toEqual(['1:success', '2:success', '3:success', '4:success']);
      expect(await eventsOf('subscription.charged', s.id)).toBe(4);
      const now = (await api(m, 'GET', `/subscriptions/${s.id}`)).body.data;
      expect(now).toMatchObject({ status: 'active', current_period_start: later.toISOString(), next_billing_at: at(s.trial_end_at, 28).toISOString() });
      const listed = (await api(m, 'GET', '/subscriptions?status=active')).body.data.map((x: { id: string }) => x.id);
      expect(listed).toEqual([s.id]);
    });

    it('a year on the test clock, with two schedulers running its rules too: the trial charge and twelve renewals, each period once', async () => {
      const m = await createMerchant(h.gateway);
      const env = schedulerEnvFor(h, { ENCRYPTION_KEYS, TEST_CLOCK_SCAN_INTERVAL_SECONDS: '1' });
      const schedulers = await Promise.all([startScheduler(env), startScheduler(env)]);
      try {
        const { subscription: s } = await subscribe(m, { amount: 2500, interval: 'monthly', trial_period_days: 14 });
        expect(s.status).toBe('trialing');
        const advance = async (seconds: number) => {
          const res = await api(m, 'POST', '/sandbox/clock/advance', { seconds });
          expect(res.status).toBe(200);
          return res.body.data;
        };
        await advance(14 * 86_400 + 60); // the trial ends: its first charge (made by the advance or a scheduler, once)
        await waitFor(async () => (await eventsOf('subscription.charged', s.id)) === 1, { what: 'the first charge' });
        await advance(365 * 86_400 + 3_600); // a year: twelve renewals, raced by both schedulers
        await waitFor(async () => (await eventsOf('subscription.charged', s.id)) >= 13, { timeoutMs: 60_000, what: 'twelve renewals' });
      } finally {
        await Promise.all(schedulers.map((x) => x.stop()));
      }
      const subscriptions = (await api(m, 'GET', '/subscriptions')).body.data as Array<{ id: string; status: string; next_billing_at: string; billing_anchor_at: string }>;
      const [s] = subscriptions;
      expect(await eventsOf('subscription.charged', s.id)).toBe(13);
      expect(await paymentsOf(m, s.id)).toEqual(Array.from({ length: 13 }, (_, i) => `${i + 1}:success`));
      // Thirteen months after the anchor, on the anchor's day or the month's last when it has fewer days.
      const anchor = new Date(s.billing_anchor_at);
      const year = anchor.getUTCFullYear();
      const month = anchor.getUTCMonth() + 13;
      const day = Math.min(anchor.getUTCDate(), new Date(Date.UTC(year, month + 1, 0)).getUTCDate());
      const thirteenMonthsOn = new Date(Date.UTC(year, month, day, anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds(), anchor.getUTCMilliseconds()));
      expect(s).toMatchObject({ status: 'active', next_billing_at: thirteenMonthsOn.toISOString() });
    }, 120_000);

    it('a failed charge makes it past_due, retried 1, 3 and 5 days later, then cancelled with subscription.cancelled', async () => {
      const m = await createMerchant(h.gateway);
      const { subscription: s } = await subscribe(m, {}, CARD_THAT_FAILS_LATER);
      const failedAt = s.billing_anchor_at as string; // the first charge, declined when subscribing (tenant time)
      expect(s).toMatchObject({ status: 'past_due', failed_attempts: 1, latest_charge: { status: 'failed' }, next_billing_at: at(failedAt, 1).toISOString() });
      expect(await eventsOf('subscription.charge_failed', s.id)).toBe(1);

      expect(await bill(m, at(failedAt, 0.99))).toBe(0);
      expect(await bill(m, at(failedAt, 1))).toBe(1);
      expect((await api(m, 'GET', `/subscriptions/${s.id}`)).body.data).toMatchObject({ status: 'past_due', failed_attempts: 2, next_billing_at: at(failedAt, 3).toISOString() });
      expect(await bill(m, at(failedAt, 3))).toBe(1);
      expect((await api(m, 'GET', `/subscriptions/${s.id}`)).body.data).toMatchObject({ status: 'past_due', failed_attempts: 3, next_billing_at: at(failedAt, 5).toISOString() });
      expect(await bill(m, at(failedAt, 5))).toBe(1);
      const cancelled = (await api(m, 'GET', `/subscriptions/${s.id}`)).body.data;
      expect(cancelled).toMatchObject({ status: 'cancelled', failed_attempts: 4, next_billing_at: null, cancellation_reason: 'payment_failed', cancelled_at: at(failedAt, 5).toISOString() });
      expect(await bill(m, at(failedAt, 400))).toBe(0);
      expect(await paymentsOf(m, s.id)).toEqual(['1:failed', '1:failed', '1:failed', '1:failed']);
      expect([await eventsOf('subscription.charge_failed', s.id), await eventsOf('subscription.cancelled', s.id), await eventsOf('subscription.charged', s.id)]).toEqual([4, 1, 0]);
      expect((await api(m, 'GET', '/subscriptions?status=cancelled')).body.data.map((x: { id: string }) => x.id)).toEqual([s.id]);
    });

    it('pause stops billing, resume restarts it from the next billing date, cancel is final; forbidden moves are 409 naming the status', async () => {
      const m = await createMerchant(h.gateway);
      const { subscription: s } = await subscribe(m, { interval: 'daily' });
      const paused = await api(m, 'POST', `/subscriptions/${s.id}/pause`);
      expect(paused.body.data).toMatchObject({ status: 'paused', next_billing_at: null, paused_at: expect.any(String) });
      expect(await eventsOf('subscription.paused', s.id)).toBe(1);
      const again = await api(m, 'POST', `/subscriptions/${s.id}/pause/`);
      expect([again.status, again.body.code, again.body.message]).toEqual([409, 'invalid_state', expect.stringContaining('paused')]);
      expect(await bill(m, at(s.billing_anchor_at, 30))).toBe(0);

      const resumed = await api(m, 'POST', `/subscriptions/${s.id}/resume`);
      // The test clock has not moved: the next billing date is the one that was due.
      expect(resumed.body.data).toMatchObject({ status: 'active', next_billing_at: s.next_billing_at, paused_at: null });
      const resumedTwice = await api(m, 'POST', `/subscriptions/${s.id}/resume`);
      expect([resumedTwice.status, resumedTwice.body.code, resumedTwice.body.message]).toEqual([409, 'invalid_state', expect.stringContaining('active')]);
      expect(await bill(m, s.next_billing_at)).toBe(1);
      expect(await paymentsOf(m, s.id)).toEqual(['1:success', '2:success']);

      const cancelled = await api(m, 'POST', `/subscriptions/${s.id}/cancel`);
      expect(cancelled.body.data).toMatchObject({ status: 'cancelled', next_billing_at: null, cancellation_reason: 'requested', cancelled_at: expect.any(String) });
      expect(await eventsOf('subscription.cancelled', s.id)).toBe(1);
      for (const move of ['pause', 'resume', 'cancel']) {
        const res = await api(m, 'POST', `/subscriptions/${s.id}/${move}`);
        expect([move, res.status, res.body.code, res.body.message]).toEqual([move, 409, 'invalid_state', expect.stringContaining('cancelled')]);
      }
      expect(await bill(m, at(s.billing_anchor_at, 60))).toBe(0);
      expect(await paymentsOf(m, s.id)).toEqual(['1:success', '2:success']);
    });

    it('bills month ends from the anchor day: 31 January → 28 February → 31 March; 29 February yearly → 28 February', async () => {
      const m = await createMerchant(h.gateway);
      const real = h.gateway.clock.now();
      try {
        h.gateway.clock.set(new Date('2027-01-31T10:00:00.000Z'));
        const { subscription: monthly } = await subscribe(m, { interval: 'monthly' });
        expect([monthly.billing_anchor_at, monthly.next_billing_at]).toEqual(['2027-01-31T10:00:00.000Z', '2027-02-28T10:00:00.000Z']);
        expect(await bill(m, '2027-02-28T10:00:00.000Z')).toBe(1);
        const february = (await api(m, 'GET', `/subscriptions/${monthly.id}`)).body.data;
        expect([february.current_period_start, february.current_period_end, february.next_billing_at]).toEqual([
          '2027-02-28T10:00:00.000Z',
          '2027-03-31T10:00:00.000Z',
          '2027-03-31T10:00:00.000Z',
        ]);
        expect(await bill(m, '2027-03-31T10:00:00.000Z')).toBe(1);
        expect((await api(m, 'GET', `/subscriptions/${monthly.id}`)).body.data.next_billing_at).toBe('2027-04-30T10:00:00.000Z');

        h.gateway.clock.set(new Date('2028-02-29T08:00:00.000Z'));
        const { subscription: yearly } = await subscribe(m, { interval: 'yearly' });
        expect(yearly.next_billing_at).toBe('2029-02-28T08:00:00.000Z');
        expect(await bill(m, '2029-02-28T08:00:00.000Z')).toBeGreaterThanOrEqual(1);
        expect((await api(m, 'GET', `/subscriptions/${yearly.id}`)).body.data.next_billing_at).toBe('2030-02-28T08:00:00.000Z');
        expect(await paymentsOf(m, yearly.id)).toEqual(['1:success', '2:success']);
      } finally {
        h.gateway.clock.set(real);
      }
    });
  });

  it('answers 404 plan_not_found / subscription_not_found to another developer and to the other mode, on every route', async () => {
    const m = await createMerchant(h.gateway, { identityVerified: true });
    const other = await createMerchant(h.gateway);
    const live = await m.issueKey({ mode: 'live' });
    const { subscription: s, planId, customer } = await subscribe(m);
    for (const who of [other, live]) {
      for (const [method, path, body] of [
        ['GET', `/subscriptions/plans/${planId}`, undefined],
        ['PATCH', `/subscriptions/plans/${planId}`, { name: 'Mine now' }],
        ['POST', `/subscriptions/plans/${planId}/archive`, undefined],
      ] as const) {
        const res = await api(who, method, path, body);
        expect([method, path, res.status, res.body.code]).toEqual([method, path, 404, 'plan_not_found']);
      }
      for (const [method, path] of [
        ['GET', `/subscriptions/${s.id}`],
        ['POST', `/subscriptions/${s.id}/pause`],
        ['POST', `/subscriptions/${s.id}/resume`],
        ['POST', `/subscriptions/${s.id}/cancel`],
      ] as const) {
        const res = await api(who, method, path);
        expect([method, path, res.status, res.body.code]).toEqual([method, path, 404, 'subscription_not_found']);
      }
      const foreignPlan = await api(who, 'POST', '/subscriptions', { customer_reference: customer.reference, plan_id: planId, authorization_code: customer.code });
      expect(foreignPlan.status).toBe(404);
      expect((await api(who, 'GET', '/subscriptions')).body.data).toEqual([]);
      expect((await api(who, 'GET', '/subscriptions/plans')).body.data).toEqual([]);
    }
    expect((await api(m, 'GET', `/subscriptions/${s.id}`)).body.data.status).toBe('active');
    expect((await api(m, 'GET', `/subscriptions/plans/${planId}`)).body.data.name).toBe('Pro');
    const missing = await api(m, 'GET', '/subscriptions/SUB_00000000000000000000');
    expect([missing.status, missing.body.code]).toEqual([404, 'subscription_not_found']);
  });

  it("delivers subscription.charged, charge_failed, paused and cancelled to the merchant's endpoint, signed, in v1 and v2", async () => {
    const receiver = new WebhookReceiver();
    const url = await receiver.start();
    const scheduler = await startScheduler(schedulerEnvFor(h, { ENCRYPTION_KEYS }));
    try {
      const m = await createMerchant(h.gateway);
      const events = ['subscription.charged', 'subscription.charge_failed', 'subscription.paused', 'subscription.cancelled'];
      const v1 = await api(m, 'POST', '/webhooks', { url: `${url}/v1`, events, webhook_version: 'v1' });
      const v2 = await api(m, 'POST', '/webhooks', { url: `${url}/v2`, events, webhook_version: 'v2' });
      expect([v1.status, v2.status]).toEqual([201, 201]);
      const { subscription: good } = await subscribe(m);
      const { subscription: bad } = await subscribe(m, {}, CARD_THAT_FAILS_LATER);
      expect((await api(m, 'POST', `/subscriptions/${good.id}/pause`)).status).toBe(200);
      expect((await api(m, 'POST', `/subscriptions/${bad.id}/cancel`)).status).toBe(200);
      await receiver.waitFor(8, 30_000);
      const seen = receiver.received.map((hook) => {
        const version = hook.url.endsWith('/v2') ? 'v2' : 'v1';
        const secret = (version === 'v2' ? v2 : v1).body.data.secret as string;
        expect(verifySignatureHeader(secret, String(hook.headers['x-gateway-signature']), hook.body, Math.floor(Date.now() / 1000))).toBe(true);
        const body = JSON.parse(hook.body);
        const object = version === 'v2' ? body.data : body;
        if (version === 'v2') expect(body.api_version).toBe('v2');
        return `${version} ${body.event} ${object.subscription_id === good.id ? 'good' : 'bad'} ${object.status}`;
      });
      expect(seen.sort()).toEqual(
        ['subscription.charged good active', 'subscription.paused good paused', 'subscription.charge_failed bad past_due', 'subscription.cancelled bad cancelled']
          .flatMap((line) => [`v1 ${line}`, `v2 ${line}`])
          .sort(),
      );
    } finally {
      await scheduler.stop();
      await receiver.close();
    }
  }, 90_000);
});
