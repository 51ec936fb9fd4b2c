import { Module } from '@nestjs/common';
import { RefundsModule } from '@gateway/domain/refunds';
import { RefundsController } from './refunds.controller';

@Module({ imports: [RefundsModule], controllers: [RefundsController] })
export class RefundsApiModule {}
