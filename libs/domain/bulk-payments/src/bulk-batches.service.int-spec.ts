import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { assertLedgerInvariants } from '@gateway/domain/ledger/testing';
import { PaymentChargesService, type PaymentView, PaymentsService } from '@gateway/domain/payments';
import { ProviderRejectedError } from '@gateway/provider';
import { ConfigModule, type DeveloperContext, DomainError, type ManualClock } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { BulkBatchesService } from './bulk-batches.service';
import { BulkPaymentsModule } from './bulk-payments.module';

/**
 * The batch worker's bookkeeping, with the single-payment services stubbed: what an item records
 * when its payment call answers, fails, times out, or comes back after another worker took it over.
 */
describe('BulkBatchesService (item outcomes)', () => {
  const CLAIM_TIMEOUT_SECONDS = 60;
  let app: INestApplicationContext;
  let clock: ManualClock;
  let dataSource: DataSource;
  let batches: BulkBatchesService;
  let payments: PaymentsService;
  let charges: PaymentChargesService;
  let ctx: DeveloperContext;

  const view = (reference: string, status: string, gatewayResponse: string | null = null) => ({ payment: { reference, status, gatewayResponse }, authorization: null }) as unknown as PaymentView;
  const itemsOf = async (batchId: string) =>
    (await dataSource.query(`SELECT status, payment_reference, payment_status, error FROM payment_batch_items WHERE batch_id = $1 ORDER BY position`, [batchId])) as Array<{
      status: string;
      payment_reference: string | null;
      payment_status: string | null;
      error: { code: string; message: string } | null;
    }>;
  const batchStatus = async (batchId: string) => ((await dataSource.query(`SELECT status FROM payment_batches WHERE id = $1`, [batchId])) as Array<{ status: string }>)[0].status;
  const initialize = (n = 1) => Array.from({ length: n }, (_, i) => ({ type: 'initialize' as const, payload: { amount: 1000 + i, email: `bulk-${i}-${randomUUID().slice(0, 8)}@example.com` } }));

  beforeAll(async () => {
    ({ app, clock } = await createDomainTestContext([ConfigModule.forRoot(testConfig({ PAYMENT_BULK_CLAIM_TIMEOUT_SECONDS: String(CLAIM_TIMEOUT_SECONDS) })), DevelopersModule, BulkPaymentsModule]));
    dataSource = app.get<DataSource>(getDataSourceToken());
    batches = app.get(BulkBatchesService);
    payments = app.get(PaymentsService);
    charges = app.get(PaymentChargesService);
    const developer = await app.get(DevelopersService).create({ email: `bulk-${randomUUID()}@example.com`, name: 'Bulk' });
    ctx = { developerId: developer.id, mode: 'test' };
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await assertLedgerInvariants(dataSource);
    await app.close();
  });

  it('does not overwrite the result of a worker that took the item over after its claim went stale', async () => {
    const batch = await batches.create(ctx, initialize());
    jest.spyOn(payments, 'initialize').mockImplementationOnce(async () => {
      // This worker is slow: past the claim timeout another worker takes the item over and finishes it.
      clock.advance((CLAIM_TIMEOUT_SECONDS + 1) * 1000);
      jest.spyOn(payments, 'initialize').mockResolvedValueOnce(view('PAY_second', 'pending'));
      await batches.process(batch.id);
      return view('PAY_first', 'pending');
    });
    await batches.process(batch.id);
    expect(await itemsOf(batch.id)).toEqual([{ status: 'succeeded', payment_reference: 'PAY_second', payment_status: 'pending', error: null }]);
    expect(await batchStatus(batch.id)).toBe('completed');
  });

  it('leaves an item whose provider call timed out to be resumed, then records what the re-run finds', async () => {
    const batch = await batches.create(ctx, initialize(2));
    jest
      .spyOn(payments, 'initialize')
      .mockRejectedValueOnce(new DomainError('gateway_timeout', 'The payment provider did not answer in time.'))
      .mockResolvedValueOnce(view('PAY_b', 'pending'));
    await batches.process(batch.id);
    expect((await itemsOf(batch.id)).map((i) => i.status)).toEqual(['processing', 'succeeded']);
    expect(await batchStatus(batch.id)).toBe('processing');
    // Not before the claim is stale…
    await batches.process(batch.id);
    expect((await itemsOf(batch.id))[0].status).toBe('processing');
    // …then the re-run resumes the item's payment under the same idempotency key.
    clock.advance((CLAIM_TIMEOUT_SECONDS + 1) * 1000);
    jest.spyOn(payments, 'initialize').mockResolvedValueOnce(view('PAY_a', 'pending'));
    await batches.process(batch.id);
    expect((await itemsOf(batch.id)).map((i) => [i.status, i.payment_reference])).toEqual([
      ['succeeded', 'PAY_a'],
      ['succeeded', 'PAY_b'],
    ]);
    expect(payments.initialize).toHaveBeenLastCalledWith(ctx, expect.anything(), `batch:${batch.reference}:0`, 'batch_item', expect.any(Date));
    expect(await batchStatus(batch.id)).toBe('completed');
  });

  it('counts a declined charge as failed, with its payment', async () => {
    jest.spyOn(payments, 'checkNewPayment').mockResolvedValue(undefined);
    const batch = await batches.create(ctx, [{ type: 'charge', payload: { amount: 1000, email: 'card@example.com', authorization_code: 'AUTH_x' } }]);
    jest.spyOn(charges, 'chargeNow').mockResolvedValueOnce(view('PAY_declined', 'failed', 'Insufficient Funds'));
    await batches.process(batch.id);
    expect(await itemsOf(batch.id)).toEqual([
      { status: 'failed', payment_reference: 'PAY_declined', payment_status: 'failed', error: { code: 'authorization_declined', message: expect.stringContaining('Insufficient Funds') } },
    ]);
  });

  it('fails an item the payment service refuses, and one the provider refuses', async () => {
    const batch = await batches.create(ctx, initialize(2));
    jest
      .spyOn(payments, 'initialize')
      .mockRejectedValueOnce(new DomainError('validation_error', 'The amount is not valid.'))
      .mockRejectedValueOnce(new ProviderRejectedError(400, 'Invalid email'));
    await batches.process(batch.id);
    expect(await itemsOf(batch.id)).toEqual([
      { status: 'failed', payment_reference: null, payment_status: null, error: { code: 'validation_error', message: 'The amount is not valid.' } },
      { status: 'failed', payment_reference: null, payment_status: null, error: { code: 'provider_error', message: expect.stringContaining('Invalid email') } },
    ]);
    expect(await batchStatus(batch.id)).toBe('completed');
  });

  it('schedules an item processed after its charge_at came near: the lead time counts from the batch, and the payment is due at once', async () => {
    const email = `late-${randomUUID().slice(0, 8)}@example.com`;
    const [customer] = await dataSource.query(`INSERT INTO customers (developer_id, mode, reference, email) VALUES ($1, 'test', $2, $3) RETURNING id`, [
      ctx.developerId,
      `CUS_${randomUUID().slice(0, 12)}`,
      email,
    ]);
    const code = `AUTH_${randomUUID().slice(0, 12)}`;
    await dataSource.query(
      `INSERT INTO payment_authorizations (developer_id, mode, code, customer_id, email, provider_authorization_code, reusable, created_at)
       VALUES ($1, 'test', $2, $3, $4, $5, true, now())`,
      [ctx.developerId, code, customer.id, email, `AUTH_provider_${randomUUID().slice(0, 8)}`],
    );
    const chargeAt = new Date(clock.now().getTime() + 90_000).toISOString();
    const batch = await batches.create(ctx, [{ type: 'initialize', payload: { amount: 2500, email, authorization_code: code, charge_at: chargeAt } }]);
    clock.advance(5 * 60_000); // the worker reaches the item five minutes later
    await batches.process(batch.id);
    const [item] = await itemsOf(batch.id);
    expect(item).toMatchObject({ status: 'succeeded', payment_status: 'scheduled', error: null });
    const [payment] = await dataSource.query(`SELECT charge_at FROM payments WHERE reference = $1`, [item.payment_reference]);
    expect((payment.charge_at as Date).toISOString()).toBe(chargeAt);
  });
});
