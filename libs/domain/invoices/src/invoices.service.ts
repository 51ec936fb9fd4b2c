import { Inject, Injectable } from '@nestjs/common';
import type { InvoiceResponse, InvoiceStatus } from '@gateway/contracts';
import { CustomersService } from '@gateway/domain/customers';
import { amountLimits, parseRequestCurrency } from '@gateway/domain/payments';
import { TestClocksService } from '@gateway/domain/test-clocks';
import { PaymentProvider } from '@gateway/provider';
import { allPages, Amount, APP_CONFIG, type AppConfig, type Currency, type DeveloperContext, DomainError, inTransaction, type Page, randomHex, READ_THROUGH_PAGE_SIZE, timeOrderedUuid } from '@gateway/platform';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dueDateProblem, utcDate } from './invoice-dates';
import type { InvoiceEntity } from './invoice.entity';
import { toInvoiceResponse } from './invoice.mapper';
import { type LineItemInput, priceLineItems } from './invoice-totals';
import { type InvoiceDraftChanges, type InvoiceListFilter, InvoicesRepository } from './invoices.repository';

export interface NewInvoice {
  customerReference: string;
  dueDate: string;
  currency: string;
  lineItems: LineItemInput[];
}

export type InvoiceChanges = Partial<NewInvoice>;

/**
 * Invoices (table `invoices`, docs/invoices.md): drafts the merchant edits, sends (which creates
 * the payment link), cancels or deletes. Payments through the link are InvoicePaymentsService's;
 * the overdue scan is InvoiceOverdueService's. Every "today" is the tenant's (TestClocksService):
 * in test mode a developer may have moved their time forward, and the invoice's timestamps follow it.
 */
@Injectable()
export class InvoicesService {
  constructor(
    private readonly repository: InvoicesRepository,
    private readonly customers: CustomersService,
    private readonly provider: PaymentProvider,
    private readonly testClocks: TestClocksService,
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * A draft; `total_amount` computed exactly (see priceLineItems).
   * @throws invalid_currency, capability_not_supported, customer_not_found, validation_error
   */
  async create(ctx: DeveloperContext, input: NewInvoice): Promise<InvoiceEntity> {
    const currency = this.currencyOf(ctx, input.currency);
    const customer = await this.customers.get(ctx, input.customerReference);
    const { lineItems, total } = await this.checkedDraft(ctx, { dueDate: input.dueDate, currency, lineItems: input.lineItems });
    const now = await this.testClocks.now(ctx);
    return this.repository.insert({
      id: timeOrderedUuid(),
      developerId: ctx.developerId,
      mode: ctx.mode,
      reference: `INV_${randomHex(10)}`,
      customerId: customer.id,
      customerReference: customer.reference,
      currency,
      dueDate: input.dueDate,
      lineItems,
      totalAmount: total,
      amountPaid: Amount.zero(),
      status: 'draft',
      linkToken: null,
      sentAt: null,
      paidAt: null,
      overdueAt: null,
      cancelledAt: null,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** @throws invoice_not_found (also for another developer's or the other mode's invoice) */
  async get(ctx: DeveloperContext, reference: string): Promise<InvoiceEntity> {
    const invoice = await this.repository.findByReference(ctx, reference);
    if (!invoice) throw new DomainError('invoice_not_found', 'No such invoice.');
    return invoice;
  }

  list(ctx: DeveloperContext, filter: InvoiceListFilter): Promise<Page<InvoiceEntity>> {
    return this.repository.list(ctx, filter);
  }

  /** Exports (docs/exports.md): the invoices created in [from, to), as the list returns them (same order, same wire form), a page at a time. */
  exportRows(ctx: DeveloperContext, range: { from: Date; to: Date; status?: InvoiceStatus }): AsyncGenerator<InvoiceResponse> {
    const base = this.config.api.publicBaseUrl;
    return allPages((cursor) => this.repository.list(ctx, { ...range, limit: READ_THROUGH_PAGE_SIZE, cursor }), (invoice) => toInvoiceResponse(invoice, base));
  }

  /** How many rows exportRows yields (at the time of asking). */
  exportCount(ctx: DeveloperContext, range: { from: Date; to: Date; status?: InvoiceStatus }): Promise<number> {
    return this.repository.countCreated(ctx, range);
  }

  /**
   * Replaces the given fields of a draft (line items all at once; the total is recomputed).
   * @throws invoice_not_found, invalid_state (not a draft), invalid_currency, capability_not_supported, customer_not_found, validation_error
   */
  async update(ctx: DeveloperContext, reference: string, changes: InvoiceChanges): Promise<InvoiceEntity> {
    const invoice = await this.get(ctx, reference);
    if (invoice.status !== 'draft') throw notDraft(invoice.status, 'updated');
    const currency = changes.currency === undefined ? invoice.currency : this.currencyOf(ctx, changes.currency);
    const customer = changes.customerReference === undefined ? null : await this.customers.get(ctx, changes.customerReference);
    const dueDate = changes.dueDate ?? invoice.dueDate;
    const draft: InvoiceDraftChanges = { currency, dueDate };
    if (customer) Object.assign(draft, { customerId: customer.id, customerReference: customer.reference });
    // The total is re-checked even when only the currency changes: its minimum is per currency.
    const items = changes.lineItems ?? invoice.lineItems.map((line) => ({ description: line.description, quantity: Number(line.quantity), unit_price: Number(line.unitPrice) }));
    const { lineItems, total } = await this.checkedDraft(ctx, { dueDate, currency, lineItems: items, dueDateChanged: changes.dueDate !== undefined });
    Object.assign(draft, { lineItems, totalAmount: total });
    const updated = await this.repository.updateDraft(ctx, invoice.id, draft, await this.testClocks.now(ctx));
    if (!updated) throw notDraft((await this.get(ctx, reference)).status, 'updated');
    return updated;
  }

  /**
   * draft → sent: the payment link (an unguessable token) is created. The due date must not be
   * before the tenant's today.
   * @throws invoice_not_found, invalid_state (not a draft), validation_error (due_date passed)
   */
  async send(ctx: DeveloperContext, reference: string): Promise<InvoiceEntity> {
    const invoice = await this.get(ctx, reference);
    if (invoice.status !== 'draft') throw notDraft(invoice.status, 'sent');
    const now = await this.testClocks.now(ctx);
    const problem = dueDateProblem(invoice.dueDate, utcDate(now));
    if (problem) throw new DomainError('validation_error', 'The invoice cannot be sent.', { due_date: [`${problem}; update the draft's due_date first`] });
    const token = randomBytes(24).toString('base64url');
    const sent = await inTransaction(this.dataSource, (manager) => this.repository.move(manager, ctx, invoice.id, 'send', now, token));
    if (!sent) throw notDraft((await this.get(ctx, reference)).status, 'sent');
    return sent;
  }

  /**
   * draft / sent / overdue → cancelled; the payment link then answers 404. A checkout already
   * started may still complete: its money is recorded (docs/invoices.md), never ignored.
   * @throws invoice_not_found, invalid_state (partially_paid, paid or cancelled)
   */
  async cancel(ctx: DeveloperContext, reference: string): Promise<InvoiceEntity> {
    const invoice = await this.get(ctx, reference);
    const now = await this.testClocks.now(ctx);
    const cancelled = await inTransaction(this.dataSource, (manager) => this.repository.move(manager, ctx, invoice.id, 'cancel', now));
    if (!cancelled) {
      const status = (await this.get(ctx, reference)).status;
      throw new DomainError('invalid_state', `The invoice is ${status}; only a draft, sent or overdue invoice can be cancelled.`, { status: [status] });
    }
    return cancelled;
  }

  /** @throws invoice_not_found, invalid_state (only drafts are deleted; cancel a sent invoice) */
  async delete(ctx: DeveloperContext, reference: string): Promise<void> {
    const invoice = await this.get(ctx, reference);
    if (!(await this.repository.deleteDraft(ctx, invoice.id))) {
      const current = await this.repository.findByReference(ctx, reference);
      if (!current) throw new DomainError('invoice_not_found', 'No such invoice.');
      throw new DomainError('invalid_state', `The invoice is ${current.status}; only a draft can be deleted (cancel it instead).`, { status: [current.status] });
    }
  }

  /** @throws invalid_currency, capability_not_supported */
  private currencyOf(ctx: DeveloperContext, value: string): Currency {
    const currency = parseRequestCurrency(value);
    // Invoices are paid through a hosted checkout: refused up front in a currency the mode's provider account does not take.
    this.provider.capabilities(ctx.mode).require('payments', currency);
    return currency;
  }

  /**
   * The due date (not before the tenant's today) and the line items, every problem at once.
   * @throws validation_error
   */
  private async checkedDraft(
    ctx: DeveloperContext,
    draft: { dueDate: string; currency: Currency; lineItems: LineItemInput[]; dueDateChanged?: boolean },
  ): Promise<ReturnType<typeof priceLineItems>> {
    const errors: Record<string, string[]> = {};
    if (draft.dueDateChanged ?? true) {
      const problem = dueDateProblem(draft.dueDate, utcDate(await this.testClocks.now(ctx)));
      if (problem) errors['due_date'] = [problem];
    }
    try {
      const priced = priceLineItems(draft.lineItems, draft.currency, amountLimits(this.config));
      if (Object.keys(errors).length === 0) return priced;
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'validation_error') throw error;
      Object.assign(errors, error.fieldErrors);
    }
    throw new DomainError('validation_error', 'The invoice is not valid.', errors);
  }
}

function notDraft(status: InvoiceStatus, what: 'updated' | 'sent'): DomainError {
  return new DomainError('invalid_state', `The invoice is ${status}; only a draft can be ${what}.`, { status: [status] });
}
