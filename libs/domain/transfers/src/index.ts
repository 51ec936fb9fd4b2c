export { TransfersModule } from './transfers.module';
export { TransfersService, RECONCILE_AFTER_MS, type NewTransfer } from './transfers.service';
export { TransferRecipientsService, type NewRecipient } from './transfer-recipients.service';
export { toTransferRecipientResponse, toTransferResponse, type TransferView } from './transfer.mapper';
export { TransferBatchesService, TRANSFER_BATCH_TASK, type NewTransferBatch } from './transfer-batches.service';
export { toTransferBatchResponse, type TransferBatchView } from './transfer-batch.mapper';
