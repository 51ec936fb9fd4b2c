import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { LedgerService } from '@gateway/domain/ledger';
import { assertLedgerInvariants } from '@gateway/domain/ledger/testing';
import { PaymentsModule } from '@gateway/domain/payments';
import { confirmedPayment } from '@gateway/domain/payments/testing';
import { type InitiateTransferInput, PaymentProvider, type ProviderTransfer } from '@gateway/provider';
import { ConfigModule, type DeveloperContext, DomainError, type ManualClock } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { TransferBatchesRepository } from './transfer-batches.repository';
import { type NewTransferBatch, TransferBatchesService } from './transfer-batches.service';
import { TransfersModule } from './transfers.module';
import { TransfersService } from './transfers.service';

/**
 * Transfer batches on a real PostgreSQL, the provider stood in for by an in-memory one that keeps
 * each transfer it is sent (pending) by reference, as the provider does: what a batch reserves,
 * what its items record, and that an item re-run after its worker died makes no second transfer.
 */
describe('TransferBatchesService', () => {
  let app: INestApplicationContext;
  let clock: ManualClock;
  let dataSource: DataSource;
  let batches: TransferBatchesService;
  let transfers: TransfersService;
  let provider: PaymentProvider;
  /** What the provider was sent, by our reference. */
  let sent: Map<string, ProviderTransfer>;

  beforeAll(async () => {
    ({ app, clock } = await createDomainTestContext([ConfigModule.forRoot(testConfig({ PLATFORM_FEES: '' })), DevelopersModule, PaymentsModule, TransfersModule]));
    dataSource = app.get<DataSource>(getDataSourceToken());
    batches = app.get(TransferBatchesService);
    transfers = app.get(TransfersService);
    provider = app.get(PaymentProvider, { strict: false });
  });
  beforeEach(() => {
    sent = new Map();
    jest.spyOn(provider, 'listBanks').mockResolvedValue([{ name: 'Guaranty Trust Bank', code: '058', slug: 'gtb', currency: 'NGN', type: 'nuban' }]);
    jest.spyOn(provider, 'resolveAccount').mockImplementation(async (_mode, input) => ({ accountNumber: input.accountNumber, accountName: 'ADA LOVELACE' }));
    jest.spyOn(provider, 'createTransferRecipient').mockImplementation(async (_mode, input) => ({ providerRecipientCode: `RCP_provider_${input.accountNumber}` }) as never);
    jest.spyOn(provider, 'initiateTransfer').mockImplementation(async (_mode, input: InitiateTransferInput) => {
      const transfer: ProviderTransfer = { providerTransferCode: `TRF_${input.reference}`, reference: input.reference, status: 'pending', amount: input.amount, currency: input.currency, failureReason: null, transferredAt: null };
      if (!sent.has(input.reference)) sent.set(input.reference, transfer);
      return sent.get(input.reference) as ProviderTransfer;
    });
    jest.spyOn(provider, 'verifyTransfer').mockImplementation(async (_mode, reference) => sent.get(reference) ?? null);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await assertLedgerInvariants(dataSource);
    await app.close();
  });

  /** A live merchant whose NGN wallet holds exactly `amount` available. */
  async function fundedMerchant(amount: number): Promise<DeveloperContext> {
    const developer = await app.get(DevelopersService).create({ email: `tbatch-${randomUUID()}@example.com`, name: 'Bulk payouts' });
    const ctx: DeveloperContext = { developerId: developer.id, mode: 'live' };
    await confirmedPayment(app, ctx, { amount, email: `payer-${randomUUID().slice(0, 8)}@example.com` });
    return ctx;
  }
  const balance = async (ctx: DeveloperContext) => {
    const b = await app.get(LedgerService, { strict: false }).balance(ctx, 'NGN');
    return { available: b.available.toString(), reserved: b.reserved.toString() };
  };
  const bank = (amount: number, accountNumber = '0123456789') => ({ source: 'bank' as const, amount, bankCode: '058', accountNumber, accountName: 'Ada Lovelace' });
  const itemsOf = async (reference: string) =>
    (await dataSource.query(
      `SELECT i.status, i.transfer_reference, i.error FROM transfer_batch_items i JOIN transfer_batches b ON b.id = i.batch_id WHERE b.reference = $1 ORDER BY i.position`,
      [reference],
    )) as Array<{ status: string; transfer_reference: string | null; error: { code: string; message: string } | null }>;
  const batchIdOf = async (reference: string) => ((await dataSource.query(`SELECT id FROM transfer_batches WHERE reference = $1`, [reference])) as Array<{ id: string }>)[0].id;
  /** The batch's transfers, and the reservations posted for them. */
  const madeFor = async (batchId: string) =>
    (
      (await dataSource.query(
        `SELECT count(DISTINCT t.id)::int AS transfers, count(p.id)::int AS reservations FROM transfers t
           LEFT JOIN ledger_postings p ON p.source_type = 'transfer' AND p.source_id = t.id::text AND p.kind = 'reserve'
          WHERE t.idempotency_key LIKE $1`,
        [`batch:${batchId}:%`],
      )) as Array<{ transfers: number; reservations: number }>
    )[0];
  const completedEvents = async (reference: string) =>
    (await dataSource.query(`SELECT data FROM events WHERE name = 'batch.completed' AND data->>'batch_reference' = $1`, [reference])) as Array<{ data: Record<string, unknown> }>;
  const create = (ctx: DeveloperContext, input: NewTransferBatch) => batches.create(ctx, input).then((view) => view.batch);

  it('refuses a batch whose total is above the available balance, storing nothing', async () => {
    const ctx = await fundedMerchant(1000);
    await expect(batches.create(ctx, { items: [bank(600), bank(400.01)] })).rejects.toMatchObject({ code: 'insufficient_wallet_balance', message: expect.stringContaining('1000.01 NGN') });
    expect(await dataSource.query(`SELECT 1 FROM transfer_batches WHERE developer_id = $1`, [ctx.developerId])).toEqual([]);
    expect(await balance(ctx)).toEqual({ available: '1000.00', reserved: '0.00' });
  });

  it('names every bad item by its index, and stores nothing', async () => {
    const ctx = await fundedMerchant(1000);
    const refused = await batches.create(ctx, { items: [bank(100), bank(99.99), { ...bank(100), bankCode: '999', accountNumber: '12345' }, { source: 'wallet', amount: 100, recipientCode: 'RCP_00000000000000000000' }, { ...bank(100), currency: 'KES' }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).fieldErrors).toEqual({
      'items.1.amount': ['amount must be at least 100.00 NGN'],
      'items.2.account_number': ['must be a 10-digit NUBAN for NGN'],
      'items.2.bank_code': ['is not a NGN bank listed by GET /banks'],
      'items.3.recipient': [expect.stringContaining('is not a recipient')],
      'items.4.currency': ["must be NGN, the batch's currency, or left out"],
    });
    expect(await dataSource.query(`SELECT 1 FROM transfer_batches WHERE developer_id = $1`, [ctx.developerId])).toEqual([]);
  });

  it('reserves each item when its transfer is made: an item the balance can no longer cover fails, the others go on', async () => {
    const ctx = await fundedMerchant(1000);
    const batch = await create(ctx, { items: [bank(400), bank(400), bank(100.25)] });
    expect(await balance(ctx)).toEqual({ available: '1000.00', reserved: '0.00' }); // nothing reserved on acceptance
    // Another payout comes first: 700.00 left, room for one of the two 400.00 items only.
    await transfers.create(ctx, bank(300));
    await batches.process(batch.id);

    const items = await itemsOf(batch.reference);
    expect(items.map((i) => i.status).sort()).toEqual(['failed', 'succeeded', 'succeeded']);
    const failed = items.findIndex((i) => i.status === 'failed');
    expect(failed).toBeLessThan(2); // one of the 400.00 items
    expect(items[failed]).toEqual({ status: 'failed', transfer_reference: null, error: { code: 'insufficient_wallet_balance', message: expect.any(String) } });
    expect(await balance(ctx)).toEqual({ available: '199.75', reserved: '800.25' });
    const [event] = await completedEvents(batch.reference);
    expect(event.data).toEqual({
      type: 'transfers',
      batch_reference: batch.reference,
      status: 'completed',
      currency: 'NGN',
      total: 3,
      total_amount: 900.25,
      counts: { pending: 0, succeeded: 2, failed: 1 },
      created_at: expect.any(String),
      completed_at: expect.any(String),
    });
  });

  it('an item whose worker died after making its transfer is taken over once stale and finds that transfer: one transfer, one reservation, sent once', async () => {
    const ctx = await fundedMerchant(1000);
    const batch = await create(ctx, { items: [bank(250), bank(150.5)] });
    const real = transfers.create.bind(transfers);
    jest.spyOn(transfers, 'create').mockImplementationOnce(async (...args) => {
      await real(...args);
      throw new Error('the worker died before recording the item');
    });
    await expect(batches.process(batch.id)).rejects.toThrow('the worker died');
    expect((await itemsOf(batch.reference)).map((i) => i.status).sort()).toEqual(['processing', 'succeeded']);

    await batches.process(batch.id); // the claim is not stale yet: nothing happens to it
    expect((await itemsOf(batch.reference)).map((i) => i.status).sort()).toEqual(['processing', 'succeeded']);
    clock.advance(60 * 60_000);
    await batches.process(batch.id);

    const items = await itemsOf(batch.reference);
    expect(items.map((i) => i.status)).toEqual(['succeeded', 'succeeded']);
    expect(await madeFor(await batchIdOf(batch.reference))).toEqual({ transfers: 2, reservations: 2 });
    expect(provider.initiateTransfer).toHaveBeenCalledTimes(2);
    expect([...sent.keys()].sort()).toEqual(items.map((i) => i.transfer_reference).sort());
    expect(await balance(ctx)).toEqual({ available: '599.50', reserved: '400.50' });
    expect(await completedEvents(batch.reference)).toHaveLength(1);
  });

  it('an item whose worker died between reserving and sending is sent on the re-run, under the same reference, once', async () => {
    const ctx = await fundedMerchant(1000);
    const batch = await create(ctx, { items: [bank(300)] });
    jest.spyOn(provider, 'initiateTransfer').mockRejectedValueOnce(new Error('the worker died before the request left'));
    await expect(batches.process(batch.id)).rejects.toThrow('the worker died');
    expect(await balance(ctx)).toEqual({ available: '700.00', reserved: '300.00' });

    clock.advance(60 * 60_000);
    await batches.process(batch.id);
    const [item] = await itemsOf(batch.reference);
    expect(item).toMatchObject({ status: 'succeeded', error: null });
    expect(provider.verifyTransfer).toHaveBeenCalledWith('live', item.transfer_reference);
    expect([...sent.keys()]).toEqual([item.transfer_reference]);
    expect(await madeFor(await batchIdOf(batch.reference))).toEqual({ transfers: 1, reservations: 1 });
    expect(await balance(ctx)).toEqual({ available: '700.00', reserved: '300.00' });
  });

  it("counts an item whose transfer was made but the provider's answer never came as done: the transfer stays pending for the reconciliation scan", async () => {
    const ctx = await fundedMerchant(1000);
    const batch = await create(ctx, { items: [bank(120)] });
    jest.spyOn(provider, 'initiateTransfer').mockRejectedValueOnce(new DomainError('gateway_timeout', 'The payment provider did not answer in time.'));
    await batches.process(batch.id);
    const [item] = await itemsOf(batch.reference);
    expect(item).toMatchObject({ status: 'succeeded', transfer_reference: expect.stringMatching(/^trf_/) });
    const view = await batches.get(ctx, batch.reference);
    expect(view.transferStatuses.get(item.transfer_reference as string)).toBe('pending');
    expect(view.batch.status).toBe('completed');
  });

  it("queues a batch again only when no worker touched any of its items for the claim timeout, not while one works through it", async () => {
    const ctx = await fundedMerchant(1000);
    const batch = await create(ctx, { items: [bank(100), bank(100)] });
    const repository = app.get(TransferBatchesRepository);
    const stalled = async () => (await repository.findStalledBatchIds(new Date(clock.now().getTime() - 20_000))).includes(batch.id);
    clock.advance(60_000);
    expect(await stalled()).toBe(true); // queued a minute ago, never started
    await repository.claimNextItem(batch.id, clock.now(), new Date(clock.now().getTime() - 20_000)); // a worker starts on it
    clock.advance(10_000);
    expect(await stalled()).toBe(false); // its second item is old, but the worker is alive
    clock.advance(60_000);
    expect(await stalled()).toBe(true); // the worker went quiet
    await batches.process(batch.id);
    expect(await stalled()).toBe(false);
  });

  it('completes once when two workers run the batch at once, and hides it from other tenants', async () => {
    const ctx = await fundedMerchant(2000);
    const batch = await create(ctx, { items: Array.from({ length: 12 }, (_, i) => bank(100 + i)) });
    await Promise.all([batches.process(batch.id), batches.process(batch.id)]);
    expect(await madeFor(await batchIdOf(batch.reference))).toEqual({ transfers: 12, reservations: 12 });
    expect(await completedEvents(batch.reference)).toHaveLength(1);
    const other = await fundedMerchant(100);
    await expect(batches.get(other, batch.reference)).rejects.toMatchObject({ code: 'batch_not_found' });
    await expect(batches.get({ ...ctx, mode: 'test' }, batch.reference)).rejects.toMatchObject({ code: 'batch_not_found' });
  });
});
