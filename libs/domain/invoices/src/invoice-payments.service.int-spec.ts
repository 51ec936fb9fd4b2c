import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { CustomersService } from '@gateway/domain/customers';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { assertLedgerInvariants } from '@gateway/domain/ledger/testing';
import { PaymentConfirmationService, PaymentsService } from '@gateway/domain/payments';
import { providerSuccess } from '@gateway/domain/payments/testing';
import { PaymentProvider } from '@gateway/provider';
import { Amount, ConfigModule, type DeveloperContext, type DomainError, inTransaction } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { InvoiceOverdueService } from './invoice-overdue.service';
import { InvoicePaymentsService } from './invoice-payments.service';
import { InvoicesModule } from './invoices.module';
import { InvoicesRepository } from './invoices.repository';
import { InvoicesService } from './invoices.service';

const DAY_MS = 24 * 60 * 60 * 1_000;

/**
 * Payments through invoice payment links on a real PostgreSQL: checkouts are started through the
 * service (the provider's checkout stood in for), and their successes are confirmed through the
 * payments module's real confirmation, whose transaction records them on the invoice.
 */
describe('InvoicePaymentsService (exact amounts, events once)', () => {
  let app: INestApplicationContext;
  let dataSource: DataSource;
  let invoices: InvoicesService;
  let links: InvoicePaymentsService;

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([ConfigModule.forRoot(testConfig({ PLATFORM_FEES: '' })), DevelopersModule, InvoicesModule]));
    dataSource = app.get<DataSource>(getDataSourceToken());
    invoices = app.get(InvoicesService);
    links = app.get(InvoicePaymentsService);
  });
  beforeEach(() => {
    jest
      .spyOn(app.get(PaymentProvider, { strict: false }), 'initializeTransaction')
      .mockImplementation(async (_mode, input) => ({ authorizationUrl: `https://checkout.example.test/${input.reference}`, accessCode: randomUUID() }));
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await assertLedgerInvariants(dataSource);
    await app.close();
  });

  const tomorrow = () => new Date(Date.now() + DAY_MS).toISOString().slice(0, 10);

  /** A sent invoice of `unitPrices` (quantity 1 each) in NGN, and its link token. */
  async function sentInvoice(unitPrices: number[]): Promise<{ ctx: DeveloperContext; reference: string; token: string }> {
    const developer = await app.get(DevelopersService).create({ email: `invoices-${randomUUID()}@example.com`, name: 'Invoices' });
    const ctx: DeveloperContext = { developerId: developer.id, mode: 'test' };
    const customer = await app.get(CustomersService, { strict: false }).create(ctx, { email: `c-${randomUUID().slice(0, 8)}@example.com`, name: 'Ada Lovelace' });
    const draft = await invoices.create(ctx, {
      customerReference: customer.reference,
      dueDate: tomorrow(),
      currency: 'NGN',
      lineItems: unitPrices.map((unit_price, i) => ({ description: `Item ${i + 1}`, quantity: 1, unit_price })),
    });
    const sent = await invoices.send(ctx, draft.reference);
    return { ctx, reference: sent.reference, token: sent.linkToken as string };
  }

  /** Starts a checkout for each amount, then confirms them all at once, as the provider's callbacks would. */
  async function payConcurrently(ctx: DeveloperContext, token: string, amounts: string[]): Promise<void> {
    const started = [];
    for (const amount of amounts) started.push(await links.startCheckout(token, amount));
    const references = started.map((s) => decodeURIComponent(s.authorizationUrl.split('/').pop() as string));
    const confirmation = app.get(PaymentConfirmationService, { strict: false });
    const payments = app.get(PaymentsService, { strict: false });
    const entities = await Promise.all(references.map(async (reference) => (await payments.get(ctx, reference)).payment));
    await Promise.all(entities.map((payment) => confirmation.apply(ctx, payment, providerSuccess(payment))));
  }

  /**
   * The hook alone, in ten concurrent transactions of its own (no other lock serialises them, as
   * the payments' own rows would): only the invoice's row lock keeps the sum exact.
   */
  async function recordConcurrently(ctx: DeveloperContext, token: string, amounts: string[]): Promise<void> {
    const payments = app.get(PaymentsService, { strict: false });
    const views = [];
    for (const amount of amounts) {
      const { authorizationUrl } = await links.startCheckout(token, amount);
      views.push(await payments.get(ctx, authorizationUrl.split('/').pop() as string));
    }
    await Promise.all(views.map((view) => inTransaction(dataSource, (manager) => links.recordPayment(manager, ctx, view))));
  }

  const count = async (name: string, ctx: DeveloperContext) =>
    Number((await dataSource.query(`SELECT count(*)::int AS n FROM events WHERE name = $1 AND developer_id = $2`, [name, ctx.developerId]))[0].n);

  it('1,000.00 paid as 333.33 + 333.33 + 233.33 + 100.01 confirmed at once adds up to exactly 1,000.00: paid, invoice.paid once', async () => {
    const { ctx, reference, token } = await sentInvoice([600.1, 399.9]);
    await payConcurrently(ctx, token, ['333.33', '333.33', '233.33', '100.01']);
    const invoice = await invoices.get(ctx, reference);
    expect([invoice.status, invoice.amountPaid.toString(), invoice.totalAmount.toString()]).toEqual(['paid', '1000.00', '1000.00']);
    expect(await count('invoice.paid', ctx)).toBe(1);
    expect(await count('invoice.partially_paid', ctx)).toBe(3);
  });

  it('ten link payments of 100.10 recorded at once (hook only) add up to exactly 1,001.00 of 1,001.00: invoice.paid once, nine partially_paid', async () => {
    const { ctx, reference, token } = await sentInvoice([500.5, 500.5]);
    // Started one after another while nothing is paid yet: each is within what is due then.
    await recordConcurrently(ctx, token, Array.from({ length: 10 }, () => '100.10'));
    const invoice = await invoices.get(ctx, reference);
    expect([invoice.status, invoice.amountPaid.toString()]).toEqual(['paid', '1001.00']);
    expect(await count('invoice.paid', ctx)).toBe(1);
    expect(await count('invoice.partially_paid', ctx)).toBe(9);
  });

  it('two checkouts of the whole 500.00 started before either completes both count: 1,000.00 paid of 500.00, paid once, the excess recorded', async () => {
    const { ctx, reference, token } = await sentInvoice([500]);
    await payConcurrently(ctx, token, ['500.00', '500.00']);
    const invoice = await invoices.get(ctx, reference);
    expect([invoice.status, invoice.amountPaid.toString()]).toEqual(['paid', '1000.00']);
    expect(await count('invoice.paid', ctx)).toBe(1);
    expect(await count('invoice.partially_paid', ctx)).toBe(0);
  });

  it('a payment confirmed again (a repeated callback) counts once', async () => {
    const { ctx, reference, token } = await sentInvoice([1000]);
    const { authorizationUrl } = await links.startCheckout(token, '400.00');
    const payment = (await app.get(PaymentsService, { strict: false }).get(ctx, authorizationUrl.split('/').pop() as string)).payment;
    const confirmation = app.get(PaymentConfirmationService, { strict: false });
    await Promise.all(Array.from({ length: 5 }, () => confirmation.apply(ctx, payment, providerSuccess(payment)).catch(() => null)));
    const invoice = await invoices.get(ctx, reference);
    expect([invoice.status, invoice.amountPaid.toString()]).toEqual(['partially_paid', '400.00']);
    expect(await count('invoice.partially_paid', ctx)).toBe(1);
  });

  it('a checkout cut short after its payment was made but before the link was written is still credited to the invoice', async () => {
    const { ctx, reference, token } = await sentInvoice([1000]);
    let paymentReference = '';
    jest.spyOn(app.get(PaymentProvider, { strict: false }), 'initializeTransaction').mockImplementation(async (_mode, input) => {
      paymentReference = input.reference;
      return { authorizationUrl: `https://checkout.example.test/${input.reference}`, accessCode: randomUUID() };
    });
    jest.spyOn(app.get(InvoicesRepository), 'linkPayment').mockRejectedValueOnce(new Error('process killed'));
    await expect(links.startCheckout(token, '600.00')).rejects.toThrow('process killed');
    // The customer reached the checkout anyway (the provider had opened it) and paid.
    const payment = (await app.get(PaymentsService, { strict: false }).get(ctx, paymentReference)).payment;
    await app.get(PaymentConfirmationService, { strict: false }).apply(ctx, payment, providerSuccess(payment));
    const invoice = await invoices.get(ctx, reference);
    expect([invoice.status, invoice.amountPaid.toString()]).toEqual(['partially_paid', '600.00']);
    expect(await count('invoice.partially_paid', ctx)).toBe(1);
  });

  it('refuses more than is due, a part below the minimum, and a part leaving less than the minimum due', async () => {
    const { token } = await sentInvoice([1000]);
    const code = async (amount: string) => {
      try {
        await links.startCheckout(token, amount);
        return 'started';
      } catch (error) {
        return (error as DomainError).code;
      }
    };
    expect(await code('1000.01')).toBe('invoice_amount_exceeds_due');
    expect(await code('99.99')).toBe('validation_error');
    expect(await code('900.01')).toBe('validation_error'); // would leave 99.99 < NGN 100
    expect(await code('12.345')).toBe('validation_error');
    expect(await code('900.00')).toBe('started');
  });

  it('an overdue invoice: a partial payment keeps it overdue, the rest makes it paid; the scan moves it once', async () => {
    const { ctx, reference, token } = await sentInvoice([300]);
    const scan = app.get(InvoiceOverdueService);
    const later = new Date(Date.now() + 3 * DAY_MS);
    const [first, second] = await Promise.all([scan.markOverdue(100, ctx, later), scan.markOverdue(100, ctx, later)]);
    expect(first + second).toBe(1);
    expect(await scan.markOverdue(100, ctx, later)).toBe(0);
    expect(await count('invoice.overdue', ctx)).toBe(1);

    await payConcurrently(ctx, token, ['100.00']);
    let invoice = await invoices.get(ctx, reference);
    expect([invoice.status, invoice.amountPaid.toString()]).toEqual(['overdue', '100.00']);
    await payConcurrently(ctx, token, ['200.00']);
    invoice = await invoices.get(ctx, reference);
    expect([invoice.status, invoice.amountPaid.toString()]).toEqual(['paid', '300.00']);
    expect(await count('invoice.paid', ctx)).toBe(1);
  });

  it('the scan leaves invoices due today alone and ignores other tenants when given one', async () => {
    const a = await sentInvoice([150]);
    const b = await sentInvoice([150]);
    const dueDay = new Date(`${tomorrow()}T23:59:59Z`);
    expect(await app.get(InvoiceOverdueService).markOverdue(100, a.ctx, dueDay)).toBe(0);
    expect(await app.get(InvoiceOverdueService).markOverdue(100, a.ctx, new Date(dueDay.getTime() + 1_000))).toBe(1);
    expect((await invoices.get(b.ctx, b.reference)).status).toBe('sent');
    expect(Amount.parse((await invoices.get(a.ctx, a.reference)).totalAmount.toString()).toString()).toBe('150.00');
  });
});
