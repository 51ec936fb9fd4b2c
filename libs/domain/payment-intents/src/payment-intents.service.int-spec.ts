import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { LedgerService } from '@gateway/domain/ledger';
import { assertLedgerInvariants } from '@gateway/domain/ledger/testing';
import { confirmedPayment } from '@gateway/domain/payments/testing';
import { type CaptureAuthorizationInput, PaymentProvider, type ProviderHold, type ReserveAuthorizationInput } from '@gateway/provider';
import { Amount, ConfigModule, type DeveloperContext, DomainError } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { PaymentIntentsModule } from './payment-intents.module';
import { PaymentIntentsService } from './payment-intents.service';
import { PaymentIntentSettlementService } from './payment-intent-settlement.service';
import { PaymentIntentsUpkeepService } from './payment-intents-upkeep.service';
import { LAPSING } from './payment-intents.repository';

/**
 * Holds on a real PostgreSQL, the provider stood in for by a small in-memory one that places,
 * captures (repeating a capture answers the first) and releases holds. No platform fee, so the
 * wallet gains exactly what is captured.
 */
describe('PaymentIntentsService (hold, capture, cancel)', () => {
  const CARD = { code: 'AUTH_provider_card', reusable: true, signature: 'SIG_card', last4: '4081', brand: 'visa', expMonth: '12', expYear: '2030', bank: 'Test Bank', channel: 'card' };
  let app: INestApplicationContext;
  let dataSource: DataSource;
  let intents: PaymentIntentsService;
  let upkeep: PaymentIntentsUpkeepService;
  let provider: PaymentProvider;
  let holds: Map<string, ProviderHold>;

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([ConfigModule.forRoot(testConfig({ PLATFORM_FEES: '' })), DevelopersModule, PaymentIntentsModule]));
    dataSource = app.get<DataSource>(getDataSourceToken());
    intents = app.get(PaymentIntentsService);
    upkeep = app.get(PaymentIntentsUpkeepService);
    provider = app.get(PaymentProvider, { strict: false });
  });
  beforeEach(() => {
    holds = new Map();
    jest.spyOn(provider, 'reserveAuthorization').mockImplementation(async (_mode, input: ReserveAuthorizationInput) => {
      const hold: ProviderHold = { reference: input.reference, status: 'reserved', amount: input.amount, reservedAmount: input.amount, currency: input.currency, fee: null, gatewayResponse: 'Approved' };
      if (!holds.has(input.reference)) holds.set(input.reference, hold);
      return holds.get(input.reference) as ProviderHold;
    });
    jest.spyOn(provider, 'captureAuthorization').mockImplementation(async (_mode, input: CaptureAuthorizationInput) => {
      const hold = holds.get(input.reference) as ProviderHold;
      if (hold.status === 'reserved') holds.set(input.reference, { ...hold, status: 'captured', amount: input.amount ?? hold.amount, fee: Amount.zero() });
      return holds.get(input.reference) as ProviderHold;
    });
    jest.spyOn(provider, 'releaseAuthorization').mockImplementation(async (_mode, reference: string) => {
      const hold = { ...(holds.get(reference) as ProviderHold), status: 'released' as const };
      holds.set(reference, hold);
      return hold;
    });
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await assertLedgerInvariants(dataSource);
    await app.close();
  });

  /** A merchant whose customer paid once by card, so the card is saved and can be held. */
  async function customerWithSavedCard(): Promise<{ ctx: DeveloperContext; email: string }> {
    const developer = await app.get(DevelopersService).create({ email: `intents-${randomUUID()}@example.com`, name: 'Intents' });
    const ctx: DeveloperContext = { developerId: developer.id, mode: 'test' };
    const email = `holder-${randomUUID().slice(0, 8)}@example.com`;
    await confirmedPayment(app, ctx, { amount: 100, email }, { ...CARD, code: `${CARD.code}_${randomUUID().slice(0, 8)}` });
    return { ctx, email };
  }
  const available = async (ctx: DeveloperContext) => (await app.get(LedgerService, { strict: false }).balance(ctx, 'NGN')).available.toString();
  /** Ledger postings for the payment a capture of the intent created (its reference is the intent's). */
  const postingsFor = async (reference: string) =>
    (
      (await dataSource.query(`SELECT count(*)::int AS n FROM ledger_postings l JOIN payments p ON p.id::text = l.source_id WHERE l.source_type = 'payment' AND p.reference = $1`, [
        reference,
      ])) as Array<{ n: number }>
    )[0].n;

  it('a hold of 5,000.00 captured for 3,000.00 by three concurrent requests is credited once: one posting, 3,000.00 more available', async () => {
    const { ctx, email } = await customerWithSavedCard();
    const intent = await intents.create(ctx, { amount: 5000, email });
    expect(intent.status).toBe('requires_capture');

    const captures = await Promise.all([1, 2, 3].map(() => intents.capture(ctx, intent.reference, 3000)));

    expect(captures.map((c) => c.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const captured = await intents.get(ctx, intent.reference);
    expect([captured.status, captured.capturedAmount?.toString()]).toEqual(['succeeded', '3000.00']);
    expect(await postingsFor(intent.reference)).toBe(1);
    expect(await available(ctx)).toBe('3100.00'); // the 100.00 checkout payment that saved the card, and the capture
    // Captured again: answered as it is, nothing more credited.
    expect((await intents.capture(ctx, intent.reference, 3000)).status).toBe('succeeded');
    expect(await postingsFor(intent.reference)).toBe(1);
  });

  it('cancel releases the hold at the provider, credits nothing, and a capture afterwards is refused', async () => {
    const { ctx, email } = await customerWithSavedCard();
    const intent = await intents.create(ctx, { amount: 2000, email });

    const canceled = await intents.cancel(ctx, intent.reference);

    expect(canceled.status).toBe('canceled');
    expect(canceled.releasedAt).not.toBeNull();
    expect(provider.releaseAuthorization).toHaveBeenCalledWith('test', intent.reference, 'NGN'); // Paystack's release takes the currency
    expect(holds.get(intent.reference)?.status).toBe('released');
    expect(await postingsFor(intent.reference)).toBe(0);
    await expect(intents.capture(ctx, intent.reference, 2000)).rejects.toMatchObject({ code: 'invalid_state', message: expect.stringContaining('canceled') });
  });

  it('a release the provider did not answer stays owed, and the upkeep scan makes it', async () => {
    const { ctx, email } = await customerWithSavedCard();
    const intent = await intents.create(ctx, { amount: 1500, email });
    jest.spyOn(provider, 'releaseAuthorization').mockRejectedValueOnce(new DomainError('gateway_timeout', 'The payment provider did not answer in time.'));

    const canceled = await intents.cancel(ctx, intent.reference);
    expect([canceled.status, canceled.releasedAt]).toEqual(['canceled', null]);
    expect(holds.get(intent.reference)?.status).toBe('reserved');

    await upkeep.expireHolds(undefined, ctx);
    expect((await intents.get(ctx, intent.reference)).releasedAt).not.toBeNull();
    expect(holds.get(intent.reference)?.status).toBe('released');
  });

  it('expires lapsed holds 100 a statement, skipping one a request holds until the next run', async () => {
    const { ctx, email } = await customerWithSavedCard();
    const references: string[] = [];
    for (let i = 0; i < 102; i += 6) references.push(...(await Promise.all(Array.from({ length: 6 }, () => intents.create(ctx, { amount: 500, email })))).map((intent) => intent.reference));
    // Releases change the expired rows again; left out, each row keeps the id of the statement that expired it (xmin).
    jest.spyOn(app.get(PaymentIntentSettlementService), 'release').mockResolvedValue(true);
    await dataSource.query(`UPDATE payment_intents SET expires_at = now() - interval '1 hour' WHERE reference = ANY ($1)`, [references]);
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      // A capture or a cancel holding the row: the scan goes past it instead of waiting.
      await runner.query(`SELECT 1 FROM payment_intents WHERE reference = $1 FOR UPDATE`, [references[0]]);
      expect(await upkeep.expireHolds(undefined, ctx)).toBe(101);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    const statements = (await dataSource.query(
      `SELECT count(*)::int AS n FROM payment_intents WHERE reference = ANY ($1) AND status = 'expired' GROUP BY xmin::text ORDER BY 1 DESC`,
      [references],
    )) as Array<{ n: number }>;
    expect(statements.map((row) => row.n)).toEqual([100, 1]);
    expect(await upkeep.expireHolds(undefined, ctx)).toBe(1);
    expect((await intents.get(ctx, references[0])).status).toBe('expired');
  });

  it('the expiry scan reads the lapsing holds\' own index, whose predicate is the transition\'s sources', async () => {
    const plan = await dataSource.transaction(async (m) => {
      // Leave the planner no other way: if the predicate no longer matched the index's, it could not use it at all.
      await m.query(`SET LOCAL enable_seqscan = off`);
      await m.query(`SET LOCAL enable_bitmapscan = off`);
      const rows = (await m.query(`EXPLAIN SELECT id FROM payment_intents WHERE status IN (${LAPSING}) AND expires_at <= $1 ORDER BY expires_at LIMIT 100`, [new Date()])) as Array<{
        'QUERY PLAN': string;
      }>;
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('Index Scan using payment_intents_lapsing on payment_intents');
  });
});
