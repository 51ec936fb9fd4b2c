import { Module } from '@nestjs/common';
import { PaymentsModule } from '@gateway/domain/payments';
import { AbandonedPaymentsJob } from './abandoned-payments.job';

@Module({ imports: [PaymentsModule], providers: [AbandonedPaymentsJob] })
export class AbandonedPaymentsModule {}
