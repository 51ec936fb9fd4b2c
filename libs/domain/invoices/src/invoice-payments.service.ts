import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { CustomersService } from '@gateway/domain/customers';
import { DevelopersService } from '@gateway/domain/developers';
import { amountLimits, PaymentOutcomeHooks, PaymentsService, type PaymentView, toPaymentResponse } from '@gateway/domain/payments';
import { TestClocksService } from '@gateway/domain/test-clocks';
import { EventsService } from '@gateway/domain/webhooks';
import { Amount, APP_CONFIG, type AppConfig, canMove, type DeveloperContext, DomainError, parseRequestAmount } from '@gateway/platform';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { InvoiceEntity } from './invoice.entity';
import { amountDue, toInvoiceResponse } from './invoice.mapper';
import { INVOICE_TRANSITIONS, PAYABLE_STATUSES } from './invoice-status';
import { InvoicesRepository } from './invoices.repository';

/** What the public payment page shows. */
export interface InvoiceLinkView {
  invoice: InvoiceEntity;
  merchantName: string;
}

/**
 * Paying an invoice through its payment link (docs/invoices.md "Payments"). Each checkout is an
 * ordinary payment of the invoice's developer and mode (a hosted checkout for the customer's
 * e-mail), mapped to the invoice in `invoice_payments`. When the payment succeeds, the payment's
 * own transaction (PaymentOutcomeHooks) adds the amount received to the invoice, moves its status
 * and emits the event: the wallet credit, the invoice and its event commit together or not at all.
 */
@Injectable()
export class InvoicePaymentsService implements OnModuleInit {
  private readonly logger = new Logger(InvoicePaymentsService.name);

  constructor(
    private readonly repository: InvoicesRepository,
    private readonly payments: PaymentsService,
    private readonly hooks: PaymentOutcomeHooks,
    private readonly customers: CustomersService,
    private readonly developers: DevelopersService,
    private readonly events: EventsService,
    private readonly testClocks: TestClocksService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.hooks.register({
      concernsSuccessOf: (payment) => payment.idempotencyScope === 'invoice',
      paymentSucceeded: (manager, ctx, view) => this.recordPayment(manager, ctx, view),
    });
  }

  /**
   * The invoice behind a payment link, for its public page. A draft has no link; a cancelled
   * invoice's link is closed: both answer like an unknown token.
   * @throws invoice_not_found
   */
  async linkView(token: string): Promise<InvoiceLinkView> {
    const invoice = await this.openInvoice(token);
    const developer = await this.developers.get(invoice.developerId);
    return { invoice, merchantName: developer.name };
  }

  /**
   * Starts a hosted checkout for `amountInput` (the whole amount due when omitted) and returns its
   * URL. Paying more than is due is refused. A part must be at least the currency's minimum and
   * leave nothing or at least that minimum due, so what remains is always payable in one checkout.
   * @throws invoice_not_found, invalid_state (paid), invoice_amount_exceeds_due, validation_error, gateway_timeout, provider_error
   */
  async startCheckout(token: string, amountInput: string | undefined): Promise<{ invoice: InvoiceEntity; authorizationUrl: string }> {
    const invoice = await this.openInvoice(token);
    if (!PAYABLE_STATUSES.includes(invoice.status)) {
      throw new DomainError('invalid_state', `The invoice is ${invoice.status}; nothing is left to pay.`, { status: [invoice.status] });
    }
    const due = amountDue(invoice);
    const amount = amountInput === undefined || amountInput.trim() === '' ? due : parseRequestAmount(amountInput.trim());
    this.checkPart(invoice, amount, due);
    const ctx: DeveloperContext = { developerId: invoice.developerId, mode: invoice.mode };
    const customer = await this.customers.getById(ctx, invoice.customerId);
    // The checkout's row first, its id the payment's idempotency key: however the steps below are
    // cut short, a payment of this invoice is always one the success hook can find.
    const checkoutId = randomUUID();
    await this.repository.insertPayment({
      id: checkoutId,
      invoiceId: invoice.id,
      developerId: invoice.developerId,
      mode: invoice.mode,
      paymentId: null,
      paymentReference: null,
      amount,
      succeededAt: null,
      createdAt: await this.testClocks.now(ctx),
    });
    const view = await this.payments.initialize(
      ctx,
      { amount: amount.toNumber(), email: customer.email, currency: invoice.currency, metadata: { invoice_reference: invoice.reference } },
      checkoutId,
      'invoice',
    );
    await this.repository.linkPayment(ctx, checkoutId, view.payment.id, view.payment.reference);
    const url = toPaymentResponse(view, this.config.api.publicBaseUrl).authorization_url;
    if (!url) throw new DomainError('provider_error', 'The provider did not open a checkout; try again.');
    return { invoice, authorizationUrl: url };
  }

  /**
   * A link payment succeeded (inside the payment's transaction). The invoice row is locked, so
   * concurrent successes on one invoice add up one after another, exactly; the money received is
   * always recorded — also when it pays more than the total (two checkouts at once) or reaches a
   * cancelled invoice (a checkout started before the cancel): it stays in the wallet, refundable.
   * `invoice.paid` is emitted once, on the move to `paid`; `invoice.partially_paid` for every
   * payment leaving part of the total due on an open invoice.
   */
  async recordPayment(manager: EntityManager, ctx: DeveloperContext, view: PaymentView): Promise<void> {
    const { payment } = view;
    // A link checkout's payment alone carries the `invoice` key space, its key the checkout row's id:
    // every other payment (the hot path) returns here without a query.
    if (payment.idempotencyScope !== 'invoice' || !payment.idempotencyKey) return;
    const link = await this.repository.lockCheckout(manager, ctx, payment.idempotencyKey);
    if (!link || link.succeededAt) return; // recorded already
    const invoice = await this.repository.lockById(manager, ctx, link.invoiceId);
    if (!invoice) throw new Error(`invoice payment ${link.id} has no invoice`);
    const now = await this.testClocks.now(ctx, manager);
    const received = view.payment.amount;
    await this.repository.markPaymentSucceeded(manager, ctx, link.id, { id: payment.id, reference: payment.reference, amount: received }, now);
    const paid = invoice.amountPaid.plus(received);

    if (paid.gte(invoice.totalAmount) && canMove(INVOICE_TRANSITIONS, 'pay', invoice.status)) {
      const updated = await this.repository.recordPaid(manager, ctx, invoice.id, paid, INVOICE_TRANSITIONS.pay.to, now, now);
      await this.events.emit(manager, ctx, 'invoice.paid', { ...toInvoiceResponse(updated, this.config.api.publicBaseUrl) });
      return;
    }
    if (paid.lt(invoice.totalAmount) && PAYABLE_STATUSES.includes(invoice.status)) {
      // An overdue invoice stays overdue (it is still late); sent and partially_paid become partially_paid.
      const status = canMove(INVOICE_TRANSITIONS, 'payPartially', invoice.status) ? INVOICE_TRANSITIONS.payPartially.to : invoice.status;
      const updated = await this.repository.recordPaid(manager, ctx, invoice.id, paid, status, null, now);
      await this.events.emit(manager, ctx, 'invoice.partially_paid', { ...toInvoiceResponse(updated, this.config.api.publicBaseUrl) });
      return;
    }
    // Already paid, or cancelled: the money is recorded, the status stays.
    await this.repository.recordPaid(manager, ctx, invoice.id, paid, invoice.status, invoice.paidAt, now);
    this.logger.warn(`invoice ${invoice.reference} (${invoice.status}) received ${received.toString()} ${invoice.currency} more; recorded, it stays in the wallet`);
  }

  /** @throws invoice_amount_exceeds_due, validation_error */
  private checkPart(invoice: InvoiceEntity, amount: Amount, due: Amount): void {
    if (!amount.isPositive()) throw new DomainError('validation_error', 'The amount is not valid.', { amount: ['amount must be greater than 0'] });
    if (amount.gt(due)) {
      throw new DomainError('invoice_amount_exceeds_due', `The amount ${amount.toString()} is more than the ${due.toString()} ${invoice.currency} still due.`, {
        amount: [`amount must be at most ${due.toString()}`],
      });
    }
    if (amount.equals(due)) return;
    const minimum = amountLimits(this.config).minimumByCurrency[invoice.currency];
    if (amount.lt(minimum) || due.minus(amount).lt(minimum)) {
      throw new DomainError('validation_error', 'The amount is not valid.', {
        amount: [`pay ${due.toString()} in full, or a part of at least ${minimum.toString()} ${invoice.currency} that leaves at least ${minimum.toString()} due`],
      });
    }
  }

  /** @throws invoice_not_found */
  private async openInvoice(token: string): Promise<InvoiceEntity> {
    const invoice = token ? await this.repository.findByLinkToken(token) : null;
    if (!invoice || invoice.status === 'draft' || invoice.status === 'cancelled') {
      throw new DomainError('invoice_not_found', 'This payment link is not open: the invoice was cancelled, or the link does not exist.');
    }
    return invoice;
  }
}
