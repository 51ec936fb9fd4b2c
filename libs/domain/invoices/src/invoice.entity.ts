import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { InvoiceStatus, Mode } from '@gateway/contracts';
import { type Amount, amountTransformer, type Currency } from '@gateway/platform';

/**
 * A line as stored: exact decimal strings (never floats). `amount` is quantity × unitPrice rounded
 * half-up to the cent, kept so the total is always the sum of what the customer is shown.
 */
export interface InvoiceLineItem {
  description: string;
  quantity: string;
  unitPrice: string;
  amount: string;
}

@Entity({ name: 'invoices' })
export class InvoiceEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  /** Public reference (`INV_…`), used in paths. */
  @Column('text')
  reference: string;

  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  @Column('text', { name: 'customer_reference' })
  customerReference: string;

  @Column('text')
  currency: Currency;

  /** YYYY-MM-DD (a calendar date, compared with the tenant's UTC date). */
  @Column('date', { name: 'due_date' })
  dueDate: string;

  @Column('jsonb', { name: 'line_items' })
  lineItems: InvoiceLineItem[];

  @Column({ name: 'total_amount', type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer })
  totalAmount: Amount;

  @Column({ name: 'amount_paid', type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer })
  amountPaid: Amount;

  @Column('text')
  status: InvoiceStatus;

  /** The payment link's secret (set by `send`): the public page is found by it, never by the reference. */
  @Column('text', { name: 'link_token', nullable: true })
  linkToken: string | null;

  @Column('timestamptz', { name: 'sent_at', nullable: true })
  sentAt: Date | null;

  @Column('timestamptz', { name: 'paid_at', nullable: true })
  paidAt: Date | null;

  @Column('timestamptz', { name: 'overdue_at', nullable: true })
  overdueAt: Date | null;

  @Column('timestamptz', { name: 'cancelled_at', nullable: true })
  cancelledAt: Date | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}

/** A payment started through an invoice's payment link: how its success finds the invoice. */
@Entity({ name: 'invoice_payments' })
export class InvoicePaymentEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'invoice_id' })
  invoiceId: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  /**
   * The payment's internal id: unique, so a payment counts towards one invoice once. Null only
   * between the checkout's row and its payment (the payment carries this row's id as its
   * idempotency key, so a payment whose link was never written is still found).
   */
  @Column('uuid', { name: 'payment_id', nullable: true })
  paymentId: string | null;

  @Column('text', { name: 'payment_reference', nullable: true })
  paymentReference: string | null;

  @Column({ type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer })
  amount: Amount;

  @Column('timestamptz', { name: 'succeeded_at', nullable: true })
  succeededAt: Date | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
