import type { InvoiceResponse } from '@gateway/contracts';
import { Amount } from '@gateway/platform';
import type { InvoiceEntity } from './invoice.entity';

/** The public page of an invoice: found by its secret token, never by its reference. */
export function invoiceLinkUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/checkout/invoices/${encodeURIComponent(token)}`;
}

/** What is still to pay: never negative (two checkouts completed at once may pay more than the total). */
export function amountDue(invoice: Pick<InvoiceEntity, 'totalAmount' | 'amountPaid'>): Amount {
  return Amount.max(invoice.totalAmount.minus(invoice.amountPaid), Amount.zero());
}

/** The only bridge from an invoice row to the wire (API responses and `invoice.*` events). */
export function toInvoiceResponse(invoice: InvoiceEntity, publicBaseUrl: string): InvoiceResponse {
  const linkOpen = invoice.linkToken !== null && invoice.status !== 'cancelled';
  return {
    reference: invoice.reference,
    customer_reference: invoice.customerReference,
    due_date: invoice.dueDate,
    currency: invoice.currency,
    line_items: invoice.lineItems.map((line) => ({
      description: line.description,
      quantity: Number(line.quantity),
      unit_price: Amount.parse(line.unitPrice).toNumber(),
      amount: Amount.parse(line.amount).toNumber(),
    })),
    total_amount: invoice.totalAmount.toNumber(),
    amount_paid: invoice.amountPaid.toNumber(),
    amount_due: amountDue(invoice).toNumber(),
    status: invoice.status,
    payment_link: linkOpen ? invoiceLinkUrl(publicBaseUrl, invoice.linkToken as string) : null,
    sent_at: invoice.sentAt?.toISOString() ?? null,
    paid_at: invoice.paidAt?.toISOString() ?? null,
    overdue_at: invoice.overdueAt?.toISOString() ?? null,
    cancelled_at: invoice.cancelledAt?.toISOString() ?? null,
    created_at: invoice.createdAt.toISOString(),
    updated_at: invoice.updatedAt.toISOString(),
  };
}
