import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '@gateway/domain/webhooks';
import { PaymentsModule } from '@gateway/domain/payments';
import { BulkBatchesService } from './bulk-batches.service';
import { PaymentBatchEntity, PaymentBatchItemEntity } from './payment-batch.entities';
import { PaymentBatchesRepository } from './payment-batches.repository';

/**
 * Bulk payments (tables `payment_batches`, `payment_batch_items`): a batch of initializes and
 * charges, processed item by item on the job queue through the payments module's services.
 */
@Module({
  imports: [TypeOrmModule.forFeature([PaymentBatchEntity, PaymentBatchItemEntity]), PaymentsModule, EventsModule],
  providers: [PaymentBatchesRepository, BulkBatchesService],
  exports: [BulkBatchesService],
})
export class BulkPaymentsModule {}
