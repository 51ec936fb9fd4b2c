import { Module } from '@nestjs/common';
import { SubaccountsModule } from '@gateway/domain/subaccounts';
import { SubaccountsController } from './subaccounts.controller';

@Module({ imports: [SubaccountsModule], controllers: [SubaccountsController] })
export class SubaccountsApiModule {}
