import { Module } from '@nestjs/common';
import { PaymentIntentsModule } from '@gateway/domain/payment-intents';
import { PaymentsModule } from '@gateway/domain/payments';
import { CheckoutController } from './checkout.controller';
import { CustomerPaymentsController } from './customer-payments.controller';
import { PaymentsController } from './payments.controller';
import { SandboxController } from './sandbox.controller';

// The sandbox's hold-expiry scan is the payment-intents module's; its other controls are payments'.
@Module({
  imports: [PaymentsModule, PaymentIntentsModule],
  controllers: [PaymentsController, CustomerPaymentsController, CheckoutController, SandboxController],
})
export class PaymentsApiModule {}
