import { Module } from '@nestjs/common';
import { PaymentIntentsModule } from '@gateway/domain/payment-intents';
import { PaymentIntentExpiryJob } from './payment-intent-expiry.job';

@Module({ imports: [PaymentIntentsModule], providers: [PaymentIntentExpiryJob] })
export class PaymentIntentExpiryModule {}
