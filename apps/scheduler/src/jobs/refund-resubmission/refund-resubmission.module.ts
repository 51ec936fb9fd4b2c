import { Module } from '@nestjs/common';
import { RefundsModule } from '@gateway/domain/refunds';
import { RefundResubmissionJob } from './refund-resubmission.job';

@Module({ imports: [RefundsModule], providers: [RefundResubmissionJob] })
export class RefundResubmissionModule {}
