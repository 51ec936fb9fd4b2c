import { Module } from '@nestjs/common';
import { RequestLogsModule } from '@gateway/domain/request-logs';
import { RequestLogPurgeJob } from './request-log-purge.job';

@Module({
  imports: [RequestLogsModule.register()],
  providers: [RequestLogPurgeJob],
})
export class RequestLogPurgeModule {}
