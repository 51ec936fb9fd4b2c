import { Module } from '@nestjs/common';
import { PaymentsModule } from '@gateway/domain/payments';
import { PaymentIntentExpiryJob } from './payment-intent-expiry.job';

@Module({ imports: [PaymentsModule], providers: [PaymentIntentExpiryJob] })
export class PaymentIntentExpiryModule {}
