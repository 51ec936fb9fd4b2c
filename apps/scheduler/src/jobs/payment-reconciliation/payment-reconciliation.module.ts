import { Module } from '@nestjs/common';
import { PaymentsModule } from '@gateway/domain/payments';
import { PaymentReconciliationJob } from './payment-reconciliation.job';

@Module({ imports: [PaymentsModule], providers: [PaymentReconciliationJob] })
export class PaymentReconciliationModule {}
