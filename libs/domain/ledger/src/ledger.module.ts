import { Module } from '@nestjs/common';
import { LedgerChainRepository } from './ledger-chain.repository';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';

@Module({
  providers: [LedgerRepository, LedgerChainRepository, LedgerService],
  exports: [LedgerService],
})
export class LedgerModule {}
