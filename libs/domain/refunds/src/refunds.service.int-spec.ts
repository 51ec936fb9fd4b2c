import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { LedgerService } from '@gateway/domain/ledger';
import { assertLedgerInvariants } from '@gateway/domain/ledger/testing';
import { PaymentsService } from '@gateway/domain/payments';
import { confirmedPayment } from '@gateway/domain/payments/testing';
import { PaymentProvider, ProviderCapabilities, ProviderRejectedError, SIMULATOR_RULES, type RefundInput } from '@gateway/provider';
import { Amount, ConfigModule, type DeveloperContext, type ManualClock } from '@gateway/platform';
import { createDomainTestContext, testConfig, waitFor } from '@gateway/platform/testing';
import { randomInt, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { RefundsModule } from './refunds.module';
import { UNSETTLED } from './refunds.repository';
import { RefundsService } from './refunds.service';

/**
 * Refunds on a real PostgreSQL, the provider stood in for (it pays every refund back at once unless
 * a test says otherwise). No platform fee, so the wallet holds exactly what was paid.
 */
describe('RefundsService (amounts and concurrency)', () => {
  let app: INestApplicationContext;
  let clock: ManualClock;
  let dataSource: DataSource;
  let refunds: RefundsService;
  let payments: PaymentsService;
  let provider: PaymentProvider;

  beforeAll(async () => {
    ({ app, clock } = await createDomainTestContext([ConfigModule.forRoot(testConfig({ PLATFORM_FEES: '' })), DevelopersModule, RefundsModule]));
    dataSource = app.get<DataSource>(getDataSourceToken());
    refunds = app.get(RefundsService);
    payments = app.get(PaymentsService, { strict: false });
    provider = app.get(PaymentProvider, { strict: false });
  });
  beforeEach(() => {
    jest.spyOn(provider, 'refund').mockImplementation(async (_mode, input: RefundInput) => {
      if (!input.amount) throw new Error('the gateway names the amount of every refund it asks for');
      return { providerId: String(randomInt(1, 2 ** 31)), status: 'processed', amount: input.amount, currency: 'NGN', transactionReference: input.transactionReference };
    });
    jest.spyOn(provider, 'listRefunds').mockResolvedValue([]);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await assertLedgerInvariants(dataSource);
    await app.close();
  });

  async function paid(amount: number): Promise<{ ctx: DeveloperContext; reference: string }> {
    const developer = await app.get(DevelopersService).create({ email: `refunds-${randomUUID()}@example.com`, name: 'Refunds' });
    const ctx: DeveloperContext = { developerId: developer.id, mode: 'test' };
    const view = await confirmedPayment(app, ctx, { amount, email: `payer-${randomUUID().slice(0, 8)}@example.com` });
    return { ctx, reference: view.payment.reference };
  }
  const refunded = async (ctx: DeveloperContext, reference: string) => (await payments.get(ctx, reference)).payment.amountRefunded.toString();
  const available = async (ctx: DeveloperContext) => (await app.get(LedgerService, { strict: false }).balance(ctx, 'NGN')).available.toString();
  /** The service's updates of a refund row waiting on another transaction's lock. */
  const rowLockWaits = async () =>
    (
      (await dataSource.query(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE 'UPDATE "refunds"%'`,
      )) as Array<{ waiting: number }>
    )[0].waiting;
  const refundRows = async (ctx: DeveloperContext) =>
    (await dataSource.query(`SELECT amount, status FROM refunds WHERE developer_id = $1 ORDER BY created_at`, [ctx.developerId])) as Array<{ amount: string; status: string }>;

  it('a partial refund of 4,000.00 leaves 6,000.00 refundable; the full refund takes the rest; then the payment is fully refunded', async () => {
    const { ctx, reference } = await paid(10_000);

    const partial = await refunds.create(ctx, { paymentReference: reference, amount: 4000 });
    expect([partial.amount.toString(), partial.status]).toEqual(['4000.00', 'processed']);
    expect(await refunded(ctx, reference)).toBe('4000.00');

    const rest = await refunds.create(ctx, { paymentReference: reference });
    expect(rest.amount.toString()).toBe('6000.00');
    expect(await refunded(ctx, reference)).toBe('10000.00');
    expect(await available(ctx)).toBe('0.00');

    await expect(refunds.create(ctx, { paymentReference: reference, amount: 1 })).rejects.toMatchObject({ code: 'invalid_state', message: 'The payment is already fully refunded.' });
  });

  it('a refund above what is left is refused and writes nothing: no refund, no debit, amount_refunded unchanged', async () => {
    const { ctx, reference } = await paid(1000);
    await refunds.create(ctx, { paymentReference: reference, amount: 400 });

    await expect(refunds.create(ctx, { paymentReference: reference, amount: 600.01 })).rejects.toMatchObject({
      code: 'validation_error',
      fieldErrors: { amount: ['must be at most 600.00 NGN'] },
    });
    expect(await refunded(ctx, reference)).toBe('400.00');
    expect(await refundRows(ctx)).toEqual([{ amount: '400.00', status: 'processed' }]);
    expect(await available(ctx)).toBe('600.00');
  });

  it('ten concurrent refunds of 3,000.00 on a 10,000.00 payment: three are made, seven refused, never more than was paid', async () => {
    const { ctx, reference } = await paid(10_000);

    const results = await Promise.allSettled(Array.from({ length: 10 }, () => refunds.create(ctx, { paymentReference: reference, amount: 3000 })));

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refusals = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => (r.reason as { code: string }).code);
    expect(refusals).toEqual(Array(7).fill('validation_error'));
    expect(await refunded(ctx, reference)).toBe('9000.00');
    expect((await refundRows(ctx)).map((r) => r.amount)).toEqual(['3000.00', '3000.00', '3000.00']);
    expect(await available(ctx)).toBe('1000.00');
  });

  it('a refund the provider refuses is failed, its debit reversed and the payment refundable again', async () => {
    const { ctx, reference } = await paid(2000);
    jest.spyOn(provider, 'refund').mockRejectedValueOnce(new ProviderRejectedError(400, 'Transaction has been fully reversed'));

    const refused = await refunds.create(ctx, { paymentReference: reference, amount: 500 });
    expect(refused.status).toBe('failed');
    expect(await refunded(ctx, reference)).toBe('0.00');
    expect(await available(ctx)).toBe('2000.00');

    const retried = await refunds.create(ctx, { paymentReference: reference });
    expect([retried.amount.toString(), retried.status]).toEqual(['2000.00', 'processed']);
  });

  it('a refund in a currency the provider account does not refund in is 422 capability_not_supported, nothing written or sent', async () => {
    const { ctx, reference } = await paid(2000);
    jest.spyOn(provider, 'capabilities').mockReturnValue(new ProviderCapabilities('simulator', ['USD'], { ...SIMULATOR_RULES }));
    const refund = jest.spyOn(provider, 'refund');
    await expect(refunds.create(ctx, { paymentReference: reference, amount: 500 })).rejects.toMatchObject({ code: 'capability_not_supported' });
    expect(refund).not.toHaveBeenCalled();
    expect(await refundRows(ctx)).toEqual([]);
    expect([await refunded(ctx, reference), await available(ctx)]).toEqual(['0.00', '2000.00']);
  });

  // Issue 12 item 2: the refusal a lost first answer earns is checked against the provider's refunds first.
  it('a "fully reversed" refusal when the provider did make this refund adopts that refund: processed, never failed', async () => {
    const { ctx, reference } = await paid(2000);
    const made = { providerId: '9100', status: 'processed' as const, amount: Amount.parse('2000.00'), currency: 'NGN' as const, transactionReference: reference };
    jest.spyOn(provider, 'refund').mockRejectedValueOnce(new ProviderRejectedError(400, 'Transaction has been fully reversed', { type: 'validation_error', code: 'transaction_reversed' }));
    jest.spyOn(provider, 'listRefunds').mockResolvedValue([made]);

    const refund = await refunds.create(ctx, { paymentReference: reference });
    expect([refund.status, refund.providerRefundId]).toEqual(['processed', '9100']);
    expect(await refunded(ctx, reference)).toBe('2000.00');
    expect(await available(ctx)).toBe('0.00');
  });

  // The simulator, like a provider that completes at once, calls back the moment it makes a refund,
  // racing its own answer to the request that asked: the answer may be recorded after the callback
  // read our refunds and before it records the same provider refund.
  it('a callback that loses the race to record the provider refund settles it all the same, from the status it read', async () => {
    const { ctx, reference } = await paid(3000);
    jest.spyOn(provider, 'refund').mockRejectedValueOnce(new ProviderRejectedError(409, 'Busy', { type: 'api_error', code: 'conflict' }));
    await expect(refunds.create(ctx, { paymentReference: reference, amount: 1200 })).rejects.toMatchObject({ code: 'provider_error' });
    const [{ id }] = (await dataSource.query(`SELECT id FROM refunds WHERE developer_id = $1 AND status = 'pending' AND provider_refund_id IS NULL`, [ctx.developerId])) as Array<{ id: string }>;
    jest.spyOn(provider, 'listRefunds').mockResolvedValue([{ providerId: '7700', status: 'processed', amount: Amount.parse('1200.00'), currency: 'NGN', transactionReference: reference }]);

    // The request the provider answered, recording its refund: committed only once the callback's
    // own attempt to record it waits on the row.
    const answer = dataSource.createQueryRunner();
    await answer.connect();
    try {
      await answer.startTransaction();
      await answer.query(`UPDATE refunds SET provider_refund_id = '7700', updated_at = now() WHERE id = $1`, [id]);
      const callback = refunds.onProviderRefund('test', { transactionReference: reference, status: 'processed', amount: Amount.parse('1200.00'), currency: 'NGN', refundReference: null });
      await waitFor(async () => (await rowLockWaits()) === 1, { what: "the callback's update to wait on the row", intervalMs: 20 });
      await answer.commitTransaction();
      await callback;
    } finally {
      if (answer.isTransactionActive) await answer.rollbackTransaction();
      await answer.release();
    }

    const [{ status, provider_refund_id }] = (await dataSource.query(`SELECT status, provider_refund_id FROM refunds WHERE id = $1`, [id])) as Array<{ status: string; provider_refund_id: string }>;
    expect([status, provider_refund_id]).toEqual(['processed', '7700']);
    const [{ completed }] = (await dataSource.query(`SELECT count(*)::int AS completed FROM events WHERE developer_id = $1 AND name = 'refund.completed'`, [ctx.developerId])) as Array<{ completed: number }>;
    expect(completed).toBe(1);
    expect([await refunded(ctx, reference), await available(ctx)]).toEqual(['1200.00', '1800.00']);
  });

  // The other way round: the callback's reconciliation adopts the provider refund (listed while
  // still pending) before the answer to the request that made it, which says it is processed.
  it("an answer that loses the race to a callback's reconciliation still settles the refund from its status", async () => {
    const { ctx, reference } = await paid(3000);
    const reconciliation = dataSource.createQueryRunner();
    await reconciliation.connect();
    try {
      jest.spyOn(provider, 'refund').mockImplementationOnce(async (_mode, input: RefundInput) => {
        await reconciliation.startTransaction();
        await reconciliation.query(`UPDATE refunds SET provider_refund_id = '8800', updated_at = now() WHERE payment_reference = $1 AND provider_refund_id IS NULL`, [reference]);
        return { providerId: '8800', status: 'processed', amount: input.amount as Amount, currency: 'NGN', transactionReference: input.transactionReference };
      });
      const created = refunds.create(ctx, { paymentReference: reference, amount: 1200 });
      await waitFor(async () => reconciliation.isTransactionActive && (await rowLockWaits()) === 1, { what: "the answer's update to wait on the row", intervalMs: 20 });
      await reconciliation.commitTransaction();
      const refund = await created;
      expect([refund.status, refund.providerRefundId]).toEqual(['processed', '8800']);
    } finally {
      if (reconciliation.isTransactionActive) await reconciliation.rollbackTransaction();
      await reconciliation.release();
    }
    expect([await refunded(ctx, reference), await available(ctx)]).toEqual(['1200.00', '1800.00']);
  });

  it('an accepted refund whose callback never came is reconciled by the scan, never sent again', async () => {
    const { ctx, reference } = await paid(3000);
    let accepted: { providerId: string; amount: Amount } | undefined;
    const refund = jest.spyOn(provider, 'refund').mockImplementation(async (_mode, input: RefundInput) => {
      accepted = { providerId: String(randomInt(1, 2 ** 31)), amount: input.amount as Amount };
      return { providerId: accepted.providerId, status: 'pending', amount: accepted.amount, currency: 'NGN', transactionReference: input.transactionReference };
    });
    const made = await refunds.create(ctx, { paymentReference: reference, amount: 1200 });
    expect(made.status).toBe('pending');
    // The provider has paid it back; its callback was lost.
    jest.spyOn(provider, 'listRefunds').mockImplementation(async (_mode, transactionReference) =>
      accepted ? [{ providerId: accepted.providerId, status: 'processed', amount: accepted.amount, currency: 'NGN', transactionReference }] : [],
    );
    expect(await refunds.resubmitUnaccepted()).toBe(0); // not stale yet
    clock.advance(2 * 60_000 + 1);
    expect(await refunds.resubmitUnaccepted()).toBe(1);
    expect((await refunds.get(ctx, made.reference)).status).toBe('processed');
    expect(refund).toHaveBeenCalledTimes(1);
  });

  it("the resubmission's claim and its lookup of a payment's refunds read indexes, not the whole table", async () => {
    const planOf = (sql: string, params: unknown[]) =>
      dataSource.transaction(async (m) => {
        // Leave the planner no other way: if no index matched the query, it could not use one at all.
        await m.query(`SET LOCAL enable_seqscan = off`);
        await m.query(`SET LOCAL enable_bitmapscan = off`);
        return ((await m.query(`EXPLAIN ${sql}`, params)) as Array<{ 'QUERY PLAN': string }>).map((row) => row['QUERY PLAN']).join('\n');
      });
    expect(await planOf(`SELECT id FROM refunds WHERE status IN (${UNSETTLED}) AND updated_at < $1 ORDER BY updated_at LIMIT 50`, [new Date()])).toContain(
      'Index Scan using refunds_pending_by_update on refunds',
    );
    expect(await planOf(`SELECT id FROM refunds WHERE mode = 'test' AND payment_reference = $1 ORDER BY created_at LIMIT 100`, ['PAY-x'])).toContain(
      'Index Scan using refunds_of_payment_reference on refunds',
    );
  });
});
