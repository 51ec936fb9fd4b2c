import { type DynamicModule, Module } from '@nestjs/common';
import { PaymentsModule } from '@gateway/domain/payments';
import { WebhooksModule } from '@gateway/domain/webhooks';
import { DATABASE_URL } from './database-url.token';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';

@Module({})
export class WebhookDeliveryModule {
  static forRoot(databaseUrl: string): DynamicModule {
    return {
      module: WebhookDeliveryModule,
      // The one job-queue worker of the scheduler: webhook deliveries and bulk payment batches.
      imports: [WebhooksModule, PaymentsModule],
      providers: [WebhookDeliveryWorker, { provide: DATABASE_URL, useValue: databaseUrl }],
    };
  }
}
