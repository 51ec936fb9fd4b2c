import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LedgerModule } from '@gateway/domain/ledger';
import { EventsModule } from '@gateway/domain/webhooks';
import { ProviderModule } from '@gateway/provider';
import { TransferRecipientEntity } from './transfer-recipient.entity';
import { TransferRecipientsRepository } from './transfer-recipients.repository';
import { TransferRecipientsService } from './transfer-recipients.service';
import { TransferEntity } from './transfer.entity';
import { TransfersRepository } from './transfers.repository';
import { TransfersService } from './transfers.service';

/** Payouts (tables `transfers`, `transfer_recipients`): reserved in the wallet, paid by the provider, settled once. */
@Module({
  imports: [TypeOrmModule.forFeature([TransferEntity, TransferRecipientEntity]), LedgerModule, EventsModule, ProviderModule],
  providers: [TransfersRepository, TransferRecipientsRepository, TransfersService, TransferRecipientsService],
  exports: [TransfersService, TransferRecipientsService],
})
export class TransfersModule {}
