import { type DynamicModule, Module } from '@nestjs/common';
import { IdentityModule } from '@gateway/domain/identity';
import { BulkPaymentsModule } from '@gateway/domain/bulk-payments';
import { TransfersModule } from '@gateway/domain/transfers';
import { ExportsModule } from '@gateway/domain/exports';
import { WebhooksModule } from '@gateway/domain/webhooks';
import { DATABASE_URL } from './database-url.token';
import { JobQueueWorker } from './job-queue.worker';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';

@Module({})
export class JobQueueModule {
  static forRoot(databaseUrl: string): DynamicModule {
    return {
      module: JobQueueModule,
      // The job-queue workers of the scheduler: webhook deliveries; bulk payment and transfer batches, exports, e-mail.
      imports: [WebhooksModule, BulkPaymentsModule, TransfersModule, IdentityModule, ExportsModule],
      providers: [JobQueueWorker, WebhookDeliveryWorker, { provide: DATABASE_URL, useValue: databaseUrl }],
    };
  }
}
