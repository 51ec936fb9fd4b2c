import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DisputesModule } from '@gateway/domain/disputes';
import { PaymentIntentsModule } from '@gateway/domain/payment-intents';
import { PaymentsModule } from '@gateway/domain/payments';
import { RefundsModule } from '@gateway/domain/refunds';
import { SettlementsModule } from '@gateway/domain/settlements';
import { TransfersModule } from '@gateway/domain/transfers';
import { VirtualAccountsModule } from '@gateway/domain/virtual-accounts';
import { ProviderModule } from '@gateway/provider';
import { ProviderEventEntity } from './provider-event.entity';
import { ProviderEventsRepository } from './provider-events.repository';
import { ProviderWebhooksService } from './provider-webhooks.service';

/**
 * The provider's callbacks: claimed once each (table `provider_events`), then handed to the
 * module they concern. It sits above the money-in flows, so none of them needs another.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ProviderEventEntity]), PaymentsModule, RefundsModule, TransfersModule, SettlementsModule, DisputesModule, VirtualAccountsModule, PaymentIntentsModule, ProviderModule],
  providers: [ProviderEventsRepository, ProviderWebhooksService],
  exports: [ProviderWebhooksService],
})
export class ProviderWebhooksModule {}
