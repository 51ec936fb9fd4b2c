import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { LedgerService } from '@gateway/domain/ledger';
import { assertLedgerInvariants } from '@gateway/domain/ledger/testing';
import { PaymentProvider } from '@gateway/provider';
import { Amount, APP_CONFIG, type AppConfig, ConfigModule, type DeveloperContext } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { PaymentConfirmationService } from './payment-confirmation.service';
import { toPaymentResponse } from './payment.mapper';
import { PaymentsModule } from './payments.module';
import { PaymentsService } from './payments.service';
import { providerSuccess } from './testing';

/**
 * Confirmation on a real PostgreSQL, the provider stood in for: whatever confirms a payment —
 * verify, the provider's callback, both at once, many times — credits it exactly once.
 */
describe('PaymentConfirmationService (credit once)', () => {
  const CONCURRENT = 8;
  let app: INestApplicationContext;
  let dataSource: DataSource;
  let payments: PaymentsService;
  let confirmation: PaymentConfirmationService;
  let provider: PaymentProvider;

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([ConfigModule.forRoot(testConfig({ PLATFORM_FEES: 'NGN:10' })), DevelopersModule, PaymentsModule]));
    dataSource = app.get<DataSource>(getDataSourceToken());
    payments = app.get(PaymentsService);
    confirmation = app.get(PaymentConfirmationService);
    provider = app.get(PaymentProvider, { strict: false });
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await assertLedgerInvariants(dataSource);
    await app.close();
  });

  async function merchant(): Promise<DeveloperContext> {
    const developer = await app.get(DevelopersService).create({ email: `confirm-${randomUUID()}@example.com`, name: 'Confirm' });
    return { developerId: developer.id, mode: 'test' };
  }
  const checkout = (ctx: DeveloperContext, amount: number) => payments.createPayment(ctx, { amount, email: `payer-${randomUUID().slice(0, 8)}@example.com` }, undefined, 'checkout');
  const postingsOf = async (paymentId: string) =>
    ((await dataSource.query(`SELECT count(*)::int AS n FROM ledger_postings WHERE source_type = 'payment' AND source_id = $1`, [paymentId])) as Array<{ n: number }>)[0].n;
  const entriesOf = async (paymentId: string) =>
    (
      (await dataSource.query(`SELECT count(*)::int AS n FROM ledger_entries e JOIN ledger_postings p ON p.id = e.posting_id WHERE p.source_type = 'payment' AND p.source_id = $1`, [
        paymentId,
      ])) as Array<{ n: number }>
    )[0].n;
  const eventsOf = async (name: string, reference: string) =>
    ((await dataSource.query(`SELECT count(*)::int AS n FROM events WHERE name = $1 AND data->>'reference' = $2`, [name, reference])) as Array<{ n: number }>)[0].n;
  const available = async (ctx: DeveloperContext) => (await app.get(LedgerService, { strict: false }).balance(ctx, 'NGN')).available.toString();

  it(`${CONCURRENT} concurrent verifies and callbacks of one paid 2,500.00 payment credit it once: one posting, one payment.success, 2,490.00 available (10.00 platform fee)`, async () => {
    const ctx = await merchant();
    const payment = await checkout(ctx, 2500);
    jest.spyOn(provider, 'verifyTransaction').mockResolvedValue(providerSuccess(payment));

    const confirmations = Array.from({ length: CONCURRENT }, (_, i) =>
      i % 2 === 0 ? confirmation.verify(ctx, payment.reference).then((view) => view.payment.status) : confirmation.verifyForCallback('test', payment.reference).then(() => 'callback'),
    );
    const outcomes = await Promise.all(confirmations);

    expect(outcomes.filter((o) => o !== 'callback')).toEqual(Array(CONCURRENT / 2).fill('success'));
    expect(await postingsOf(payment.id)).toBe(1);
    expect(await entriesOf(payment.id)).toBe(4); // provider_clearing → wallet, wallet → platform_fees
    expect(await eventsOf('payment.success', payment.reference)).toBe(1);
    expect(await available(ctx)).toBe('2490.00');
  });

  it('a success arriving again after the payment was credited (a late callback) changes nothing', async () => {
    const ctx = await merchant();
    const payment = await checkout(ctx, 1200);
    const success = providerSuccess(payment, { fee: Amount.parse('18') });
    await confirmation.apply(ctx, payment, success);
    const again = await confirmation.apply(ctx, payment, success);

    expect(again.payment.status).toBe('success');
    expect(again.payment.netAmount?.toString()).toBe('1172.00'); // 1,200.00 − 18.00 provider fee − 10.00 platform fee
    expect(await postingsOf(payment.id)).toBe(1);
    expect(await eventsOf('payment.success', payment.reference)).toBe(1);
    expect(await available(ctx)).toBe('1172.00');
  });

  it('a decline then the customer paying on the same checkout: failed first, then credited once', async () => {
    const ctx = await merchant();
    const payment = await checkout(ctx, 700);
    const declined = await confirmation.apply(ctx, payment, { ...providerSuccess(payment), status: 'failed', gatewayResponse: 'Declined', fee: null });
    expect(declined.payment.status).toBe('failed');
    expect(await postingsOf(payment.id)).toBe(0);

    await Promise.all([confirmation.apply(ctx, payment, providerSuccess(payment)), confirmation.apply(ctx, payment, providerSuccess(payment))]);
    expect((await payments.get(ctx, payment.reference)).payment.status).toBe('success');
    expect(await postingsOf(payment.id)).toBe(1);
    expect(await eventsOf('payment.failed', payment.reference)).toBe(1);
    expect(await eventsOf('payment.success', payment.reference)).toBe(1);
  });

  it("the payment.success event carries the payment as the response shows it, its saved card too: first seen, and seen again on the customer's next payment", async () => {
    const ctx = await merchant();
    const card = { code: `AUTH_${randomUUID().slice(0, 8)}`, reusable: true, signature: 'SIG_1', last4: '4081', brand: 'visa', expMonth: '12', expYear: '2030', bank: 'Test Bank', channel: 'card' };
    const email = `payer-${randomUUID().slice(0, 8)}@example.com`;
    const eventData = async (reference: string) =>
      ((await dataSource.query(`SELECT data FROM events WHERE name = 'payment.success' AND data->>'reference' = $1`, [reference])) as Array<{ data: unknown }>)[0].data;
    const codes: Array<string | undefined> = [];
    for (const amount of [800, 950]) {
      const payment = await payments.createPayment(ctx, { amount, email }, undefined, 'checkout');
      const view = await confirmation.apply(ctx, payment, providerSuccess(payment, { authorization: card, paidAt: new Date('2026-11-30T10:00:00.123Z') }));

      expect(view.authorization?.last4).toBe('4081');
      expect(await eventData(payment.reference)).toEqual(JSON.parse(JSON.stringify(toPaymentResponse(view, app.get<AppConfig>(APP_CONFIG).api.publicBaseUrl))));
      codes.push(view.authorization?.code);
    }
    expect(codes[1]).toBe(codes[0]); // one saved card for both payments
  });

  it('a provider reporting another amount than was asked is not credited', async () => {
    const ctx = await merchant();
    const payment = await checkout(ctx, 900);
    await expect(confirmation.apply(ctx, payment, providerSuccess(payment, { amount: Amount.parse('9') }))).rejects.toMatchObject({ code: 'provider_error' });
    expect((await payments.get(ctx, payment.reference)).payment.status).toBe('pending');
    expect(await postingsOf(payment.id)).toBe(0);
  });
});
