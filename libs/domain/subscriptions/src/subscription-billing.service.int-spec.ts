import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { assertLedgerInvariants } from '@gateway/domain/ledger/testing';
import { PaymentConfirmationService, PaymentsService } from '@gateway/domain/payments';
import { confirmedPayment, providerSuccess } from '@gateway/domain/payments/testing';
import { type ChargeAuthorizationInput, PaymentProvider, type ProviderTransaction } from '@gateway/provider';
import { Amount, ConfigModule, type DeveloperContext, DomainError, type ManualClock } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { PlansService } from './plans.service';
import { STALE_CLAIM_MS, SubscriptionBillingService } from './subscription-billing.service';
import { SubscriptionsModule } from './subscriptions.module';
import { SubscriptionsService } from './subscriptions.service';

const DAY_MS = 24 * 60 * 60 * 1_000;

/**
 * The billing scan on a real PostgreSQL against a provider that remembers what it charged (by our
 * payment reference, as Paystack does): several scans at once, a timeout whose charge went
 * through, a scheduler that died mid-charge — each period is charged exactly once.
 */
describe('SubscriptionBillingService (exactly once per period)', () => {
  let app: INestApplicationContext;
  let clock: ManualClock;
  let dataSource: DataSource;
  let billing: SubscriptionBillingService;
  let provider: PaymentProvider;
  /** What the provider charged, by our payment reference, and how often it was asked. */
  const charged = new Map<string, ProviderTransaction>();
  const asked = new Map<string, number>();
  /** How the provider answers the next call: charge and answer, charge but time out, or die before it is reached. */
  let next: Array<'answer' | 'charge-then-timeout' | 'unreachable' | 'decline'> = [];

  beforeAll(async () => {
    ({ app, clock } = await createDomainTestContext([ConfigModule.forRoot(testConfig({ PLATFORM_FEES: '', SUBSCRIPTION_RETRY_DAYS: '1,3,5' })), DevelopersModule, SubscriptionsModule]));
    dataSource = app.get<DataSource>(getDataSourceToken());
    billing = app.get(SubscriptionBillingService);
    provider = app.get(PaymentProvider, { strict: false });
  });
  beforeEach(() => {
    next = [];
    jest.spyOn(provider, 'chargeAuthorization').mockImplementation(async (_mode, input: ChargeAuthorizationInput) => {
      asked.set(input.reference, (asked.get(input.reference) ?? 0) + 1);
      const behaviour = next.shift() ?? 'answer';
      if (behaviour === 'unreachable') throw new Error('connect ECONNREFUSED (the scheduler died here)');
      // A reference charged before is answered with that charge (the adapter verifies a duplicate reference).
      const transaction =
        charged.get(input.reference) ??
        (behaviour === 'decline'
          ? { ...providerSuccess({ reference: input.reference, amount: input.amount, currency: input.currency }), status: 'failed' as const, gatewayResponse: 'Insufficient Funds' }
          : providerSuccess({ reference: input.reference, amount: input.amount, currency: input.currency }));
      charged.set(input.reference, transaction);
      if (behaviour === 'charge-then-timeout') throw new DomainError('gateway_timeout', 'The provider did not answer in time.');
      return transaction;
    });
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await assertLedgerInvariants(dataSource);
    await app.close();
  });

  async function tenant(): Promise<DeveloperContext> {
    const developer = await app.get(DevelopersService).create({ email: `subs-${randomUUID()}@example.com`, name: 'Subscriptions' });
    return { developerId: developer.id, mode: 'test' };
  }

  /** A subscription of a new customer (with a saved card) to a weekly plan of 1,500.25 with `trialDays`. */
  async function subscription(ctx: DeveloperContext, trialDays: number): Promise<{ id: string; internal: string }> {
    const email = `payer-${randomUUID().slice(0, 8)}@example.com`;
    const card = { code: `AUTH_prov_${randomUUID().slice(0, 8)}`, reusable: true, signature: null, last4: '4081', brand: 'visa', expMonth: '12', expYear: '2030', bank: null, channel: 'card' };
    const paid = await confirmedPayment(app, ctx, { amount: 1000, email }, card);
    const plan = await app.get(PlansService).create(ctx, { name: 'Weekly', amount: 1500.25, interval: 'weekly', trialPeriodDays: trialDays });
    const created = await app.get(SubscriptionsService).create(ctx, {
      customerReference: paid.payment.customerReference as string,
      planId: plan.publicId,
      authorizationCode: paid.authorization?.code as string,
    });
    return { id: created.publicId, internal: created.id };
  }

  const get = (ctx: DeveloperContext, id: string) => app.get(SubscriptionsService).get(ctx, id);
  const count = async (sql: string, params: unknown[]) => Number((await dataSource.query(sql, params))[0].n);
  /** Payments made for the subscription: `<period>:<status>` in period and attempt order. */
  const paymentsOf = async (internalId: string) =>
    ((await dataSource.query(
      `SELECT c.period, p.status FROM subscription_charges c JOIN payments p ON p.id = c.payment_id WHERE c.subscription_id = $1 ORDER BY c.period, c.attempt`,
      [internalId],
    )) as Array<{ period: number; status: string }>).map((r) => `${r.period}:${r.status}`);
  const eventsOf = (name: string, id: string) => count(`SELECT count(*)::int AS n FROM events WHERE name = $1 AND data->>'id' = $2`, [name, id]);

  it('ten concurrent scans charge each of three due subscriptions once, then catch up two more weeks once each', async () => {
    const ctx = await tenant();
    const subs = await Promise.all([subscription(ctx, 1), subscription(ctx, 1), subscription(ctx, 1)]);
    const trialEnd = (await get(ctx, subs[0].id)).nextBillingAt as Date;
    const runs = await Promise.all(Array.from({ length: 10 }, () => billing.billDue(100, ctx, new Date(trialEnd.getTime() + 60_000))));
    expect(runs.reduce((a, b) => a + b, 0)).toBe(3);
    for (const s of subs) expect(await paymentsOf(s.internal)).toEqual(['1:success']);

    const later = new Date(trialEnd.getTime() + 14 * DAY_MS + 60_000);
    let processed = 0;
    for (let round = 0; round < 4; round++) processed += (await Promise.all(Array.from({ length: 5 }, () => billing.billDue(2, ctx, later)))).reduce((a, b) => a + b, 0);
    expect(processed).toBe(6);
    for (const s of subs) {
      expect(await paymentsOf(s.internal)).toEqual(['1:success', '2:success', '3:success']);
      expect(await eventsOf('subscription.charged', s.id)).toBe(3);
      expect(await get(ctx, s.id)).toMatchObject({ status: 'active', duePeriod: 4, failedAttempts: 0, claimedAt: null });
    }
    // Each payment reference reached the provider once.
    const references = (await dataSource.query(`SELECT payment_reference FROM subscription_charges WHERE developer_id = $1`, [ctx.developerId])) as Array<{ payment_reference: string }>;
    expect(references.map((r) => asked.get(r.payment_reference))).toEqual(references.map(() => 1));
  });

  it('a provider timeout whose charge went through, then a scheduler that died mid-charge: the period is paid by one payment, credited once', async () => {
    const ctx = await tenant();
    const s = await subscription(ctx, 2);
    const due = (await get(ctx, s.id)).nextBillingAt as Date;

    next = ['charge-then-timeout'];
    expect(await billing.billDue(100, ctx, due)).toBe(1);
    expect(await get(ctx, s.id)).toMatchObject({ status: 'trialing', duePeriod: 1, latestChargeStatus: 'pending' });
    // Still claimed: another scan leaves it alone until the claim is stale.
    expect(await Promise.all([billing.billDue(100, ctx, due), billing.billDue(100, ctx, due)])).toEqual([0, 0]);

    clock.advance(STALE_CLAIM_MS + 1);
    next = ['unreachable'];
    expect(await billing.billDue(100, ctx, due)).toBe(1);
    expect(await get(ctx, s.id)).toMatchObject({ status: 'trialing', latestChargeStatus: 'pending' });

    clock.advance(STALE_CLAIM_MS + 1);
    const resumed = await Promise.all([billing.billDue(100, ctx, due), billing.billDue(100, ctx, due), billing.billDue(100, ctx, due)]);
    expect(resumed.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await paymentsOf(s.internal)).toEqual(['1:success']);
    const [{ payment_reference: reference }] = (await dataSource.query(`SELECT payment_reference FROM subscription_charges WHERE subscription_id = $1`, [s.internal])) as Array<{ payment_reference: string }>;
    expect(asked.get(reference)).toBe(3); // the same reference each time: the provider charged it once
    expect(await count(`SELECT count(*)::int AS n FROM ledger_postings l JOIN payments p ON l.source_id = p.id::text WHERE l.source_type = 'payment' AND p.reference = $1`, [reference])).toBe(1);
    expect([await eventsOf('subscription.charged', s.id), await count(`SELECT count(*)::int AS n FROM events WHERE name = 'payment.success' AND data->>'reference' = $1`, [reference])]).toEqual([1, 1]);
    expect(await get(ctx, s.id)).toMatchObject({ status: 'active', duePeriod: 2, claimedAt: null });
  });

  it('a declined charge later reported paid (money received) pays its period: past_due becomes active, no second charge', async () => {
    const ctx = await tenant();
    next = ['decline'];
    const s = await subscription(ctx, 0);
    const declined = await get(ctx, s.id);
    expect(declined).toMatchObject({ status: 'past_due', failedAttempts: 1, duePeriod: 1, latestChargeStatus: 'failed' });
    expect(declined.nextBillingAt?.getTime()).toBe((declined.pastDueSince as Date).getTime() + DAY_MS);

    const view = await app.get(PaymentsService).get(ctx, declined.latestPaymentReference as string);
    expect(view.payment.status).toBe('failed');
    await app.get(PaymentConfirmationService).apply(ctx, view.payment, providerSuccess({ reference: view.payment.reference, amount: Amount.parse('1500.25'), currency: 'NGN' }));

    expect(await get(ctx, s.id)).toMatchObject({ status: 'active', failedAttempts: 0, duePeriod: 2, pastDueSince: null, latestChargeStatus: 'success' });
    expect(await billing.billDue(100, ctx, new Date((declined.nextBillingAt as Date).getTime() + 60_000))).toBe(0); // the retry is no longer due
    expect(await paymentsOf(s.internal)).toEqual(['1:success']);
    expect([await eventsOf('subscription.charge_failed', s.id), await eventsOf('subscription.charged', s.id)]).toEqual([1, 1]);
  });

  it('a pause racing the charge outcome: the payment is recorded, billing stays stopped', async () => {
    const ctx = await tenant();
    const s = await subscription(ctx, 1);
    const due = (await get(ctx, s.id)).nextBillingAt as Date;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const original = (provider.chargeAuthorization as jest.Mock).getMockImplementation() as (mode: 'test', input: ChargeAuthorizationInput) => Promise<ProviderTransaction>;
    jest.spyOn(provider, 'chargeAuthorization').mockImplementationOnce(async (mode, input) => {
      await held;
      return original(mode as 'test', input);
    });
    const scan = billing.billDue(100, ctx, due);
    await new Promise((r) => setTimeout(r, 200));
    expect((await app.get(SubscriptionsService).pause(ctx, s.id)).status).toBe('paused');
    release();
    expect(await scan).toBe(1);
    expect(await get(ctx, s.id)).toMatchObject({ status: 'paused', nextBillingAt: null, duePeriod: 2, latestChargeStatus: 'success' });
    expect(await billing.billDue(100, ctx, new Date(due.getTime() + 30 * DAY_MS))).toBe(0);
    expect(await paymentsOf(s.internal)).toEqual(['1:success']);
  });

  it('a charge declined while pausing counts as an attempt: once resumed, the period is charged by a new payment, not the declined one', async () => {
    const ctx = await tenant();
    const s = await subscription(ctx, 1);
    const due = (await get(ctx, s.id)).nextBillingAt as Date;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const original = (provider.chargeAuthorization as jest.Mock).getMockImplementation() as (mode: 'test', input: ChargeAuthorizationInput) => Promise<ProviderTransaction>;
    jest.spyOn(provider, 'chargeAuthorization').mockImplementationOnce(async (mode, input) => {
      await held;
      next = ['decline'];
      return original(mode as 'test', input);
    });
    const scan = billing.billDue(100, ctx, due);
    await new Promise((r) => setTimeout(r, 200));
    await app.get(SubscriptionsService).pause(ctx, s.id);
    release();
    expect(await scan).toBe(1);
    expect(await get(ctx, s.id)).toMatchObject({ status: 'paused', failedAttempts: 1, latestChargeStatus: 'failed', claimedAt: null });

    // Resumed before the trial's end (the tenant's time has not reached it): the trial goes on.
    expect((await app.get(SubscriptionsService).resume(ctx, s.id)).status).toBe('trialing');
    expect(await billing.billDue(100, ctx, due)).toBe(1);
    expect(await paymentsOf(s.internal)).toEqual(['1:failed', '1:success']);
    expect(await get(ctx, s.id)).toMatchObject({ status: 'active', duePeriod: 2, failedAttempts: 0 });
  });
});
