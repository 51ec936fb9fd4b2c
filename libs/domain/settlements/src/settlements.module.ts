import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '@gateway/domain/audit';
import { DevelopersModule } from '@gateway/domain/developers';
import { LedgerModule } from '@gateway/domain/ledger';
import { EventsModule } from '@gateway/domain/webhooks';
import { ProviderModule } from '@gateway/provider';
import { AutoSettlementsService } from './auto-settlements.service';
import { SettlementDecisionEntity } from './settlement-decision.entity';
import { SettlementEntity } from './settlement.entity';
import { SettlementPayoutsService } from './settlement-payouts.service';
import { SettlementsRepository } from './settlements.repository';
import { SettlementsService } from './settlements.service';

/** Withdrawals to the account's bank (tables `settlements`, `settlement_decisions`): requested, approved by staff, paid by the provider. */
@Module({
  imports: [TypeOrmModule.forFeature([SettlementEntity, SettlementDecisionEntity]), DevelopersModule, LedgerModule, EventsModule, ProviderModule, AuditModule],
  providers: [SettlementsRepository, SettlementsService, SettlementPayoutsService, AutoSettlementsService],
  exports: [SettlementsService, SettlementPayoutsService, AutoSettlementsService],
})
export class SettlementsModule {}
