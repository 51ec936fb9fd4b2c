export { PaymentIntentsModule } from './payment-intents.module';
export { PaymentIntentsService, type NewPaymentIntent } from './payment-intents.service';
export { PaymentIntentsUpkeepService } from './payment-intents-upkeep.service';
export { PaymentIntentAuthorizationService } from './payment-intent-authorization.service';
export { toPaymentIntentResponse } from './payment-intent.mapper';
