import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CustomersModule } from '@gateway/domain/customers';
import { DevelopersModule } from '@gateway/domain/developers';
import { EventsModule } from '@gateway/domain/events';
import { LedgerModule } from '@gateway/domain/ledger';
import { SubaccountsModule } from '@gateway/domain/subaccounts';
import { ProviderModule } from '@gateway/provider';
import { PaymentAuthorizationEntity } from './payment-authorization.entity';
import { PaymentChargesService } from './payment-charges.service';
import { PaymentConfirmationService } from './payment-confirmation.service';
import { PaymentEntity } from './payment.entity';
import { PaymentsMaintenanceService } from './payments-maintenance.service';
import { PaymentsSandboxService } from './payments-sandbox.service';
import { PaymentsRepository } from './payments.repository';
import { PaymentsService } from './payments.service';
import { ProviderEventEntity } from './provider-event.entity';
import { ProviderWebhooksService } from './provider-webhooks.service';
import { BulkBatchesService } from './bulk/bulk-batches.service';
import { PaymentBatchEntity, PaymentBatchItemEntity } from './bulk/payment-batch.entities';
import { PaymentIntentEntity } from './intents/payment-intent.entity';
import { PaymentIntentsService } from './intents/payment-intents.service';
import { RefundEntity } from './refunds/refund.entity';
import { RefundsService } from './refunds/refunds.service';

/** Payments: initialize, verify, charges of saved cards, refunds, payment intents (holds), bulk batches, provider callbacks, sandbox controls and upkeep scans. */
@Module({
  imports: [
    TypeOrmModule.forFeature([PaymentEntity, PaymentAuthorizationEntity, ProviderEventEntity, RefundEntity, PaymentIntentEntity, PaymentBatchEntity, PaymentBatchItemEntity]),
    CustomersModule,
    DevelopersModule,
    SubaccountsModule,
    LedgerModule,
    EventsModule,
    ProviderModule,
  ],
  providers: [PaymentsRepository, PaymentsService, PaymentConfirmationService, PaymentChargesService, PaymentsMaintenanceService, PaymentsSandboxService, ProviderWebhooksService, RefundsService, PaymentIntentsService, BulkBatchesService],
  exports: [PaymentsService, PaymentConfirmationService, PaymentChargesService, PaymentsMaintenanceService, PaymentsSandboxService, ProviderWebhooksService, RefundsService, PaymentIntentsService, BulkBatchesService],
})
export class PaymentsModule {}
