import type { InvoiceStatus } from '@gateway/contracts';
import type { StatusMoves } from '@gateway/platform';

/**
 * Every status move of an invoice, by name (see StatusMoves and docs/invoices.md). Payments never
 * leave `overdue` except to `paid`: a partial payment on an overdue invoice keeps it overdue (it
 * is still late), with `amount_paid` updated.
 */
export const INVOICE_TRANSITIONS = {
  /** The merchant sends the draft: the payment link is created. */
  send: { from: ['draft'], to: 'sent' },
  /** A payment that leaves part of the total due. */
  payPartially: { from: ['sent', 'partially_paid'], to: 'partially_paid' },
  /** Payments now cover the total (also from overdue: a late payment still settles it). */
  pay: { from: ['sent', 'partially_paid', 'overdue'], to: 'paid' },
  /** The scan: the tenant's UTC date is after due_date. */
  markOverdue: { from: ['sent', 'partially_paid'], to: 'overdue' },
  cancel: { from: ['draft', 'sent', 'overdue'], to: 'cancelled' },
} as const satisfies StatusMoves<InvoiceStatus>;

export type InvoiceTransition = keyof typeof INVOICE_TRANSITIONS;

/** Statuses in which the payment link takes payments. */
export const PAYABLE_STATUSES: readonly InvoiceStatus[] = ['sent', 'partially_paid', 'overdue'];
