import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AnalyticsModule } from '@gateway/domain/analytics';
import { CustomersModule } from '@gateway/domain/customers';
import { DevelopersModule } from '@gateway/domain/developers';
import { EventsModule } from '@gateway/domain/webhooks';
import { LedgerModule } from '@gateway/domain/ledger';
import { SubaccountsModule } from '@gateway/domain/subaccounts';
import { TestClocksModule } from '@gateway/domain/test-clocks';
import { ProviderModule } from '@gateway/provider';
import { PaymentAuthorizationEntity } from './payment-authorization.entity';
import { PaymentChargesService } from './payment-charges.service';
import { PaymentConfirmationService } from './payment-confirmation.service';
import { PaymentRefundBalanceService } from './payment-refund-balance.service';
import { PaymentEntity } from './payment.entity';
import { PaymentOutcomeHooks } from './payment-outcome-hooks';
import { PaymentPreviewService } from './payment-preview.service';
import { PaymentsMaintenanceService } from './payments-maintenance.service';
import { PaymentsSandboxService } from './payments-sandbox.service';
import { PaymentsRepository } from './payments.repository';
import { PaymentsService } from './payments.service';
import { SavedCardsService } from './saved-cards.service';

/**
 * Payments (tables `payments`, `payment_authorizations`, `payment_reconciliation_schedule`):
 * initialize, verify and the provider's word on a charge, charges of saved cards (now or
 * scheduled), saved cards, sandbox controls and upkeep scans. Refunds, payment intents and bulk
 * batches are modules of their own that change a payment only through the services exported
 * here, inside their own transaction.
 */
@Module({
  imports: [TypeOrmModule.forFeature([PaymentEntity, PaymentAuthorizationEntity]), AnalyticsModule, CustomersModule, DevelopersModule, SubaccountsModule, TestClocksModule, LedgerModule, EventsModule, ProviderModule],
  providers: [
    PaymentsRepository,
    PaymentsService,
    PaymentConfirmationService,
    PaymentChargesService,
    PaymentOutcomeHooks,
    PaymentPreviewService,
    PaymentRefundBalanceService,
    PaymentsMaintenanceService,
    PaymentsSandboxService,
    SavedCardsService,
  ],
  exports: [PaymentsService, PaymentConfirmationService, PaymentChargesService, PaymentOutcomeHooks, PaymentPreviewService, PaymentRefundBalanceService, PaymentsMaintenanceService, PaymentsSandboxService, SavedCardsService],
})
export class PaymentsModule {}
