import { Module } from '@nestjs/common';
import { RequestLogsModule } from '@gateway/domain/request-logs';
import { RequestLogPartitionsJob } from './request-log-partitions.job';

@Module({
  imports: [RequestLogsModule.register()],
  providers: [RequestLogPartitionsJob],
})
export class RequestLogPartitionsModule {}
