export { InvoicesModule } from './invoices.module';
export { InvoicesService, type InvoiceChanges, type NewInvoice } from './invoices.service';
export { InvoicePaymentsService, type InvoiceLinkView } from './invoice-payments.service';
export { InvoiceOverdueService } from './invoice-overdue.service';
export { amountDue, invoiceLinkUrl, toInvoiceResponse } from './invoice.mapper';
export type { InvoiceEntity as Invoice, InvoiceLineItem } from './invoice.entity';
