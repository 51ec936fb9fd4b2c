export { BulkPaymentsModule } from './bulk-payments.module';
export { BulkBatchesService, PAYMENT_BATCH_TASK, type BulkItem } from './bulk-batches.service';
export { toPaymentBatchResponse } from './payment-batch.mapper';
