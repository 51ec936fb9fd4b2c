import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SubaccountEntity } from './subaccount.entity';
import { SubaccountsService } from './subaccounts.service';

@Module({
  imports: [TypeOrmModule.forFeature([SubaccountEntity])],
  providers: [SubaccountsService],
  exports: [SubaccountsService],
})
export class SubaccountsModule {}
