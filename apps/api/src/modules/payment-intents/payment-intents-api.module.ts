import { Module } from '@nestjs/common';
import { PaymentsModule } from '@gateway/domain/payments';
import { PaymentIntentsController } from './payment-intents.controller';

@Module({ imports: [PaymentsModule], controllers: [PaymentIntentsController] })
export class PaymentIntentsApiModule {}
