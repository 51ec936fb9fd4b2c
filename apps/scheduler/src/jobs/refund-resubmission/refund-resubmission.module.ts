import { Module } from '@nestjs/common';
import { PaymentsModule } from '@gateway/domain/payments';
import { RefundResubmissionJob } from './refund-resubmission.job';

@Module({ imports: [PaymentsModule], providers: [RefundResubmissionJob] })
export class RefundResubmissionModule {}
