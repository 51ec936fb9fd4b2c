import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CustomersModule } from '@gateway/domain/customers';
import { PaymentsModule } from '@gateway/domain/payments';
import { TestClocksModule } from '@gateway/domain/test-clocks';
import { ProviderModule } from '@gateway/provider';
import { PaymentIntentEntity } from './payment-intent.entity';
import { PaymentIntentAuthorizationService } from './payment-intent-authorization.service';
import { PaymentIntentSettlementService } from './payment-intent-settlement.service';
import { PaymentIntentsUpkeepService } from './payment-intents-upkeep.service';
import { PaymentIntentsRepository } from './payment-intents.repository';
import { PaymentIntentsService } from './payment-intents.service';

/**
 * Payment intents (table `payment_intents`): 7-day holds on saved cards (or on a card the customer
 * authorizes on the provider's hosted page), captured into a payment
 * that the payments module creates and credits, or cancelled and released.
 */
@Module({
  imports: [TypeOrmModule.forFeature([PaymentIntentEntity]), PaymentsModule, CustomersModule, TestClocksModule, ProviderModule],
  providers: [PaymentIntentsRepository, PaymentIntentsService, PaymentIntentSettlementService, PaymentIntentsUpkeepService, PaymentIntentAuthorizationService],
  exports: [PaymentIntentsService, PaymentIntentsUpkeepService, PaymentIntentAuthorizationService],
})
export class PaymentIntentsModule {}
