import { Module } from '@nestjs/common';
import { BulkPaymentsModule } from '@gateway/domain/bulk-payments';
import { BulkPaymentsController } from './bulk-payments.controller';

@Module({ imports: [BulkPaymentsModule], controllers: [BulkPaymentsController] })
export class BulkPaymentsApiModule {}
