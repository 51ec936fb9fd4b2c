import { Module } from '@nestjs/common';
import { InvoicesModule } from '@gateway/domain/invoices';
import { InvoiceOverdueJob } from './invoice-overdue.job';

@Module({ imports: [InvoicesModule], providers: [InvoiceOverdueJob] })
export class InvoiceOverdueModule {}
