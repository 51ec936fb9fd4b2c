import { Module } from '@nestjs/common';
import { PaymentsModule } from '@gateway/domain/payments';
import { ScheduledChargesJob } from './scheduled-charges.job';

@Module({ imports: [PaymentsModule], providers: [ScheduledChargesJob] })
export class ScheduledChargesModule {}
