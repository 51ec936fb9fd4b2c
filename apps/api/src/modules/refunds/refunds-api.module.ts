import { Module } from '@nestjs/common';
import { PaymentsModule } from '@gateway/domain/payments';
import { RefundsController } from './refunds.controller';

@Module({ imports: [PaymentsModule], controllers: [RefundsController] })
export class RefundsApiModule {}
