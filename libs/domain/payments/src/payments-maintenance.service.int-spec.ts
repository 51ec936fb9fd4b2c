import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { assertLedgerInvariants } from '@gateway/domain/ledger/testing';
import { PaymentProvider } from '@gateway/provider';
import { ConfigModule, type DeveloperContext, type ManualClock } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { PaymentConfirmationService } from './payment-confirmation.service';
import { PaymentsMaintenanceService } from './payments-maintenance.service';
import { PaymentsModule } from './payments.module';
import { PaymentsService } from './payments.service';
import { providerSuccess } from './testing';

const GRACE_SECONDS = 600;
const MAX_AGE_HOURS = 72;

/**
 * The reconciliation scan on a real PostgreSQL, the provider stood in for: a payment the provider
 * collected whose confirmation never reached us is found once its grace period is over and
 * credited once, whatever else confirms it; unpaid ones are asked about less and less often.
 */
describe('PaymentsMaintenanceService.reconcileUnconfirmed', () => {
  let app: INestApplicationContext;
  let clock: ManualClock;
  let dataSource: DataSource;
  let maintenance: PaymentsMaintenanceService;
  let payments: PaymentsService;
  let provider: PaymentProvider;
  /** References the stand-in provider was asked about, in order; only this file's payments are looked at. */
  let asked: string[];

  beforeAll(async () => {
    const config = testConfig({
      PAYMENT_RECONCILE_AFTER_SECONDS: String(GRACE_SECONDS),
      PAYMENT_RECONCILE_MAX_AGE_HOURS: String(MAX_AGE_HOURS),
      // Other files' pending payments share the database: every due one is looked at in each run, ours included.
      PAYMENT_RECONCILE_BATCH_SIZE: '10000',
    });
    ({ app, clock } = await createDomainTestContext([ConfigModule.forRoot(config), DevelopersModule, PaymentsModule]));
    dataSource = app.get<DataSource>(getDataSourceToken());
    maintenance = app.get(PaymentsMaintenanceService);
    payments = app.get(PaymentsService);
    provider = app.get(PaymentProvider, { strict: false });
  });
  beforeEach(() => {
    asked = [];
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await assertLedgerInvariants(dataSource);
    await app.close();
  });

  async function checkout(amount: number): Promise<{ ctx: DeveloperContext; reference: string; id: string }> {
    const developer = await app.get(DevelopersService).create({ email: `reconcile-${randomUUID()}@example.com`, name: 'Reconcile' });
    const ctx: DeveloperContext = { developerId: developer.id, mode: 'test' };
    const payment = await payments.createPayment(ctx, { amount, email: `payer-${randomUUID().slice(0, 8)}@example.com` }, undefined, 'checkout');
    return { ctx, reference: payment.reference, id: payment.id };
  }
  /** The provider collected the payments in `paid`; it knows nothing of any other. */
  function providerKnows(paid: Awaited<ReturnType<typeof payments.createPayment>>[]): void {
    jest.spyOn(provider, 'verifyTransaction').mockImplementation(async (_mode, reference) => {
      asked.push(reference);
      const payment = paid.find((p) => p.reference === reference);
      return payment ? providerSuccess(payment) : null;
    });
  }
  const askedAbout = (...references: string[]) => asked.filter((r) => references.includes(r)).sort();
  const count = async (sql: string, params: unknown[]) => ((await dataSource.query(sql, params)) as Array<{ n: number }>)[0].n;

  it('a payment collected with no callback and no verify is credited once after the grace period, by two scans at once', async () => {
    const paid = await checkout(2500);
    const unpaid = await checkout(1000);
    providerKnows([await payments.get(paid.ctx, paid.reference).then((v) => v.payment)]);

    clock.advance((GRACE_SECONDS - 1) * 1000);
    await maintenance.reconcileUnconfirmed();
    expect(askedAbout(paid.reference, unpaid.reference)).toEqual([]); // still within its grace period

    clock.advance(2_000);
    await Promise.all([maintenance.reconcileUnconfirmed(), maintenance.reconcileUnconfirmed()]);
    expect(askedAbout(paid.reference, unpaid.reference)).toEqual([paid.reference, unpaid.reference].sort()); // each once
    expect((await payments.get(paid.ctx, paid.reference)).payment.status).toBe('success');
    expect((await payments.get(unpaid.ctx, unpaid.reference)).payment.status).toBe('pending');
    expect(await count(`SELECT count(*)::int AS n FROM ledger_postings WHERE source_type = 'payment' AND source_id = $1`, [paid.id])).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM events WHERE name = 'payment.success' AND data->>'reference' = $1`, [paid.reference])).toBe(1);
  });

  it('an unpaid payment is asked about again once its age has doubled, and not after PAYMENT_RECONCILE_MAX_AGE_HOURS', async () => {
    const unpaid = await checkout(1000);
    providerKnows([]);
    // The scan run every minute for 3 hours, then every hour up to twice the max age: the ages (s) it asked at.
    const askedAt: number[] = [];
    for (let age = 0; age <= 2 * MAX_AGE_HOURS * 3600; ) {
      const before = askedAbout(unpaid.reference).length;
      await maintenance.reconcileUnconfirmed();
      if (askedAbout(unpaid.reference).length > before) askedAt.push(age);
      const step = age < 3 * 3600 ? 60 : 3600;
      clock.advance(step * 1000);
      age += step;
    }
    // 10, 20, 40, 80, 160 min; then at the hourly runs 6, 12, 24, 48 h; the next (96 h) is past 72 h.
    expect(askedAt).toEqual([600, 1200, 2400, 4800, 9600, 21_600, 43_200, 86_400, 172_800]);
  });

  /** The payment row's version (xmin: the transaction that last wrote it) and its schedule, if any. */
  async function rowsOf(id: string): Promise<{ version: string; reconcileAfter: Date | null; scheduled: Date | null }> {
    const [row] = (await dataSource.query(
      `SELECT p.xmin::text AS version, p.reconcile_after, s.reconcile_after AS scheduled
         FROM payments p LEFT JOIN payment_reconciliation_schedule s ON s.payment_id = p.id WHERE p.id = $1`,
      [id],
    )) as Array<{ version: string; reconcile_after: Date | null; scheduled: Date | null }>;
    return { version: row.version, reconcileAfter: row.reconcile_after, scheduled: row.scheduled };
  }

  it('writes an unpaid payment once, at its first ask; every later ask moves its schedule row only, removed after the last', async () => {
    const unpaid = await checkout(1000);
    providerKnows([]);
    const created = await rowsOf(unpaid.id);
    expect(created).toMatchObject({ reconcileAfter: null, scheduled: null });

    clock.advance(GRACE_SECONDS * 1000);
    await maintenance.reconcileUnconfirmed();
    const first = await rowsOf(unpaid.id);
    expect(askedAbout(unpaid.reference)).toHaveLength(1);
    expect(first.version).not.toBe(created.version); // stamped: it has been asked about
    expect(first.reconcileAfter).not.toBeNull();
    // Next due when its age has doubled: the grace period counts from 10 minutes after the first ask.
    expect(first.scheduled?.getTime()).toBe(first.reconcileAfter?.getTime());

    clock.advance(GRACE_SECONDS * 1000);
    await maintenance.reconcileUnconfirmed();
    const second = await rowsOf(unpaid.id);
    expect(askedAbout(unpaid.reference)).toHaveLength(2);
    expect(second.version).toBe(first.version); // the payment itself was not written again
    expect(second.scheduled?.getTime()).toBeGreaterThan(first.scheduled?.getTime() ?? Infinity);

    clock.advance(MAX_AGE_HOURS * 3600 * 1000);
    await maintenance.reconcileUnconfirmed();
    const last = await rowsOf(unpaid.id);
    expect(askedAbout(unpaid.reference)).toHaveLength(2); // past the max age: not asked, its schedule gone
    expect(last).toEqual({ ...second, scheduled: null });
  });

  /** A checkout nobody pays, asked about once by the scan at the end of its grace period. */
  async function unpaidAskedOnce(amount: number): Promise<Awaited<ReturnType<typeof checkout>>> {
    const unpaid = await checkout(amount);
    providerKnows([]);
    clock.advance(GRACE_SECONDS * 1000);
    await maintenance.reconcileUnconfirmed();
    expect(askedAbout(unpaid.reference)).toHaveLength(1);
    return unpaid;
  }

  it('asks about a payment due again once, when three scans claim at the same moment', async () => {
    const unpaid = await unpaidAskedOnce(1200);

    clock.advance(GRACE_SECONDS * 1000);
    await Promise.all([maintenance.reconcileUnconfirmed(), maintenance.reconcileUnconfirmed(), maintenance.reconcileUnconfirmed()]);
    expect(askedAbout(unpaid.reference)).toHaveLength(2);
    expect(await count(`SELECT count(*)::int AS n FROM payment_reconciliation_schedule WHERE payment_id = $1`, [unpaid.id])).toBe(1);
  });

  it('removes the schedule of a payment settled since its last ask when it comes due, without asking the provider again', async () => {
    const checkoutPayment = await unpaidAskedOnce(1500);
    expect((await rowsOf(checkoutPayment.id)).scheduled).not.toBeNull();

    // The customer pays, and the merchant verifies.
    providerKnows([await payments.get(checkoutPayment.ctx, checkoutPayment.reference).then((v) => v.payment)]);
    await app.get(PaymentConfirmationService).verify(checkoutPayment.ctx, checkoutPayment.reference);
    expect(askedAbout(checkoutPayment.reference)).toHaveLength(2); // the scan's ask, then the merchant's verify

    clock.advance(GRACE_SECONDS * 1000);
    await maintenance.reconcileUnconfirmed();
    expect(askedAbout(checkoutPayment.reference)).toHaveLength(2);
    expect((await rowsOf(checkoutPayment.id)).scheduled).toBeNull();
    expect((await payments.get(checkoutPayment.ctx, checkoutPayment.reference)).payment.status).toBe('success');
  });
});
