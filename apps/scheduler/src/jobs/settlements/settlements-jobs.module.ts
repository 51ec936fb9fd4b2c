import { Module } from '@nestjs/common';
import { SettlementsModule } from '@gateway/domain/settlements';
import { AutoSettlementJob } from './auto-settlement.job';
import { SettlementReconciliationJob } from './settlement-reconciliation.job';

@Module({ imports: [SettlementsModule], providers: [SettlementReconciliationJob, AutoSettlementJob] })
export class SettlementsJobsModule {}
