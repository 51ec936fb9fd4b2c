import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CustomersModule } from '@gateway/domain/customers';
import { DevelopersModule } from '@gateway/domain/developers';
import { LedgerModule } from '@gateway/domain/ledger';
import { EventsModule } from '@gateway/domain/webhooks';
import { ProviderModule } from '@gateway/provider';
import { VirtualAccountDepositEntity, VirtualAccountEntity } from './virtual-account.entities';
import { VirtualAccountDepositsService } from './virtual-account-deposits.service';
import { VirtualAccountsRepository } from './virtual-accounts.repository';
import { VirtualAccountsService } from './virtual-accounts.service';

/** Dedicated virtual accounts and their deposits (tables `virtual_accounts`, `virtual_account_deposits`). */
@Module({
  imports: [TypeOrmModule.forFeature([VirtualAccountEntity, VirtualAccountDepositEntity]), CustomersModule, DevelopersModule, LedgerModule, EventsModule, ProviderModule],
  providers: [VirtualAccountsRepository, VirtualAccountsService, VirtualAccountDepositsService],
  exports: [VirtualAccountsService, VirtualAccountDepositsService],
})
export class VirtualAccountsModule {}
