import { Module } from '@nestjs/common';
import { IdempotencyModule } from '@gateway/domain/idempotency';
import { IdempotencyPurgeJob } from './idempotency-purge.job';

@Module({
  imports: [IdempotencyModule],
  providers: [IdempotencyPurgeJob],
})
export class IdempotencyPurgeModule {}
