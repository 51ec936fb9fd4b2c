import { Module } from '@nestjs/common';
import { TransfersModule } from '@gateway/domain/transfers';
import { BanksController } from './banks.controller';
import { TransferBatchesController } from './transfer-batches.controller';
import { TransferRecipientsController } from './transfer-recipients.controller';
import { TransfersController } from './transfers.controller';

@Module({ imports: [TransfersModule], controllers: [TransfersController, TransferBatchesController, TransferRecipientsController, BanksController] })
export class TransfersApiModule {}
