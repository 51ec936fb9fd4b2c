import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AnalyticsModule } from '@gateway/domain/analytics';
import { EventsModule } from '@gateway/domain/webhooks';
import { LedgerModule } from '@gateway/domain/ledger';
import { PaymentsModule } from '@gateway/domain/payments';
import { ProviderModule } from '@gateway/provider';
import { RefundEntity } from './refund.entity';
import { RefundsRepository } from './refunds.repository';
import { RefundsService } from './refunds.service';

/** Refunds (table `refunds`): recorded against the wallet, paid back by the provider, settled once. */
@Module({
  imports: [TypeOrmModule.forFeature([RefundEntity]), PaymentsModule, LedgerModule, EventsModule, AnalyticsModule, ProviderModule],
  providers: [RefundsRepository, RefundsService],
  exports: [RefundsService],
})
export class RefundsModule {}
