import { Module } from '@nestjs/common';
import { InvoicesModule } from '@gateway/domain/invoices';
import { InvoiceLinkController } from './invoice-link.controller';
import { InvoicesController } from './invoices.controller';

@Module({ imports: [InvoicesModule], controllers: [InvoicesController, InvoiceLinkController] })
export class InvoicesApiModule {}
