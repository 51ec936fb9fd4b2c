import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LedgerModule } from '@gateway/domain/ledger';
import { EventsModule } from '@gateway/domain/webhooks';
import { ProviderModule } from '@gateway/provider';
import { TransferBatchEntity, TransferBatchItemEntity } from './transfer-batch.entities';
import { TransferBatchesRepository } from './transfer-batches.repository';
import { TransferBatchesService } from './transfer-batches.service';
import { TransferRecipientEntity } from './transfer-recipient.entity';
import { TransferRecipientsRepository } from './transfer-recipients.repository';
import { TransferRecipientsService } from './transfer-recipients.service';
import { TransferEntity } from './transfer.entity';
import { TransfersRepository } from './transfers.repository';
import { TransfersService } from './transfers.service';

/**
 * Payouts (tables `transfers`, `transfer_recipients`, `transfer_batches`, `transfer_batch_items`):
 * reserved in the wallet, paid by the provider, settled once; in bulk, one transfer per batch item.
 */
@Module({
  imports: [TypeOrmModule.forFeature([TransferEntity, TransferRecipientEntity, TransferBatchEntity, TransferBatchItemEntity]), LedgerModule, EventsModule, ProviderModule],
  providers: [TransfersRepository, TransferRecipientsRepository, TransferBatchesRepository, TransfersService, TransferRecipientsService, TransferBatchesService],
  exports: [TransfersService, TransferRecipientsService, TransferBatchesService],
})
export class TransfersModule {}
