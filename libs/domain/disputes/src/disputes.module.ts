import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '@gateway/domain/webhooks';
import { LedgerModule } from '@gateway/domain/ledger';
import { PaymentsModule } from '@gateway/domain/payments';
import { TestClocksModule } from '@gateway/domain/test-clocks';
import { ProviderModule } from '@gateway/provider';
import { DisputeEntity } from './dispute.entity';
import { DisputeOutcomesService } from './dispute-outcomes.service';
import { DisputesRepository } from './disputes.repository';
import { DisputesService } from './disputes.service';

/** Disputes (table `disputes`): chargebacks from the provider, their hold on the wallet, evidence and outcome. */
@Module({
  imports: [TypeOrmModule.forFeature([DisputeEntity]), PaymentsModule, TestClocksModule, LedgerModule, EventsModule, ProviderModule],
  providers: [DisputesRepository, DisputeOutcomesService, DisputesService],
  exports: [DisputesService, DisputeOutcomesService],
})
export class DisputesModule {}
