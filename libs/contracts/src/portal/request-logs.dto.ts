import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { Mode } from '../common';
import { ListQueryDto } from '../pagination';

export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;

/** `GET /api/portal/request-logs`: newest first, in the session's mode. */
export class RequestLogsQuery extends ListQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(599)
  status?: number;

  @IsOptional()
  @IsIn(STATUS_CLASSES)
  status_class?: (typeof STATUS_CLASSES)[number];

  /** Case-insensitive part of the path, e.g. `customers`. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  path?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  request_id?: string;

  /** Inclusive ISO 8601 bounds. */
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;
}

/** A logged merchant API request; bodies are redacted before storage. */
export class RequestLogResponse {
  id: string;
  request_id: string;
  created_at: string;
  duration_ms: number;
  method: string;
  path: string;
  status_code: number;
  mode: Mode | null;
  api_key_id: string | null;
  client_ip: string | null;
  user_agent: string | null;
  request_body: unknown;
  response_body: unknown;
}
