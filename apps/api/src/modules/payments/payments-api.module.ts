import { Module } from '@nestjs/common';
import { PaymentsModule } from '@gateway/domain/payments';
import { BulkPaymentsController } from './bulk-payments.controller';
import { CheckoutController } from './checkout.controller';
import { CustomerPaymentsController } from './customer-payments.controller';
import { PaymentsController } from './payments.controller';
import { ProviderWebhooksController } from './provider-webhooks.controller';
import { SandboxController } from './sandbox.controller';

@Module({
  imports: [PaymentsModule],
  controllers: [BulkPaymentsController, PaymentsController, CustomerPaymentsController, CheckoutController, ProviderWebhooksController, SandboxController],
})
export class PaymentsApiModule {}
