import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SubaccountEntity } from './subaccount.entity';
import { SubaccountsRepository } from './subaccounts.repository';
import { SubaccountsService } from './subaccounts.service';

@Module({
  imports: [TypeOrmModule.forFeature([SubaccountEntity])],
  providers: [SubaccountsRepository, SubaccountsService],
  exports: [SubaccountsService],
})
export class SubaccountsModule {}
