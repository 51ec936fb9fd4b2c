import { Module } from '@nestjs/common';
import { PaymentIntentsModule } from '@gateway/domain/payment-intents';
import { HoldCheckoutController } from './hold-checkout.controller';
import { PaymentIntentsController } from './payment-intents.controller';

@Module({ imports: [PaymentIntentsModule], controllers: [PaymentIntentsController, HoldCheckoutController] })
export class PaymentIntentsApiModule {}
