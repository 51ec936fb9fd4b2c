import { type DynamicModule, Module } from '@nestjs/common';
import { RequestLogFeedRepository } from './request-log-feed.repository';
import { RequestLogFeedService } from './request-log-feed.service';
import { RequestLogPartitionsRepository } from './request-log-partitions.repository';
import { RequestLogPartitionsService } from './request-log-partitions.service';
import { RequestLogWriter } from './request-log.writer';
import { DEFAULT_REQUEST_LOGS_OPTIONS, REQUEST_LOGS_OPTIONS, type RequestLogsOptions } from './request-logs.options';
import { RequestLogsRepository } from './request-logs.repository';
import { RequestLogsService } from './request-logs.service';

/** The request log: a buffered batch writer (API), the portal's search, and the partition upkeep and retention (scheduler). */
@Module({})
export class RequestLogsModule {
  /**
   * Register once per application, at its root. The module is global, so every other module
   * injects the one RequestLogWriter (one buffer, one timer) and RequestLogsService without
   * importing it again.
   */
  static register(options: Partial<RequestLogsOptions> = {}): DynamicModule {
    return {
      module: RequestLogsModule,
      global: true,
      providers: [
        { provide: REQUEST_LOGS_OPTIONS, useValue: withDefaults(options) },
        RequestLogsRepository,
        RequestLogWriter,
        RequestLogsService,
        RequestLogPartitionsRepository,
        RequestLogPartitionsService,
        RequestLogFeedRepository,
        RequestLogFeedService,
      ],
      exports: [RequestLogWriter, RequestLogsService, RequestLogPartitionsService, RequestLogFeedService],
    };
  }
}

/** Known settings only (callers may pass a wider config object); unset ones keep their default. */
function withDefaults(options: Partial<RequestLogsOptions>): RequestLogsOptions {
  const result = { ...DEFAULT_REQUEST_LOGS_OPTIONS };
  for (const name of Object.keys(result) as Array<keyof RequestLogsOptions>) {
    result[name] = options[name] ?? result[name];
  }
  return result;
}
