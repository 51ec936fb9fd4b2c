import { Module } from '@nestjs/common';
import { DisputesModule } from '@gateway/domain/disputes';
import { DisputeExpiryJob } from './dispute-expiry.job';

@Module({ imports: [DisputesModule], providers: [DisputeExpiryJob] })
export class DisputeExpiryModule {}
