import { Module } from '@nestjs/common';
import { TransfersModule } from '@gateway/domain/transfers';
import { TransferReconciliationJob } from './transfer-reconciliation.job';

@Module({ imports: [TransfersModule], providers: [TransferReconciliationJob] })
export class TransferReconciliationModule {}
