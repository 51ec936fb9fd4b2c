export { RequestLogsModule } from './request-logs.module';
export { DEFAULT_REQUEST_LOGS_OPTIONS, type RequestLogsOptions } from './request-logs.options';
export { RequestLogWriter } from './request-log.writer';
export { RequestLogsService, type RequestLogFilter, type RequestLogPage, type RequestLogView } from './request-logs.service';
export type { NewRequestLogEntry } from './request-log-entry';
export { isSensitiveKey, redactSensitive, REDACTED } from './redaction';
export { MAX_STORED_BODY_BYTES, storableBody, type BodyText, type TruncatedBodyMarker } from './stored-body';
