export * from './transfer.dto';
export * from './transfer-batch.dto';
