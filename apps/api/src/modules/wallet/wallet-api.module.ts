import { Module } from '@nestjs/common';
import { LedgerModule } from '@gateway/domain/ledger';
import { WalletController } from './wallet.controller';

@Module({ imports: [LedgerModule], controllers: [WalletController] })
export class WalletApiModule {}
