import { Module } from '@nestjs/common';
import { PaymentIntentsModule } from '@gateway/domain/payment-intents';
import { PaymentIntentsController } from './payment-intents.controller';

@Module({ imports: [PaymentIntentsModule], controllers: [PaymentIntentsController] })
export class PaymentIntentsApiModule {}
