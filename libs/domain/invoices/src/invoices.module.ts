import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CustomersModule } from '@gateway/domain/customers';
import { DevelopersModule } from '@gateway/domain/developers';
import { PaymentsModule } from '@gateway/domain/payments';
import { TestClocksModule } from '@gateway/domain/test-clocks';
import { EventsModule } from '@gateway/domain/webhooks';
import { ProviderModule } from '@gateway/provider';
import { InvoiceEntity, InvoicePaymentEntity } from './invoice.entity';
import { InvoiceOverdueService } from './invoice-overdue.service';
import { InvoicePaymentsService } from './invoice-payments.service';
import { InvoicesRepository } from './invoices.repository';
import { InvoicesService } from './invoices.service';

/** Invoices, their payment links and the overdue scan (tables `invoices`, `invoice_payments`). */
@Module({
  imports: [TypeOrmModule.forFeature([InvoiceEntity, InvoicePaymentEntity]), CustomersModule, DevelopersModule, PaymentsModule, TestClocksModule, EventsModule, ProviderModule],
  providers: [InvoicesRepository, InvoicesService, InvoicePaymentsService, InvoiceOverdueService],
  exports: [InvoicesService, InvoicePaymentsService, InvoiceOverdueService],
})
export class InvoicesModule {}
