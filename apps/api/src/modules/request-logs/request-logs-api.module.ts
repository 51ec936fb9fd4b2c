import { Module } from '@nestjs/common';
import { RequestLogsController } from './request-logs.controller';

/** The merchant API's request-log tail; the service comes from the global RequestLogsModule. */
@Module({ controllers: [RequestLogsController] })
export class RequestLogsApiModule {}
