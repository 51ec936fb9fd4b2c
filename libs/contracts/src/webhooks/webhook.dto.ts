import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { EVENT_NAMES, type EventName, WEBHOOK_VERSIONS, type WebhookVersion } from '../events';

const EVENT_MESSAGE = `each value in events must be one of: ${EVENT_NAMES.join(', ')}`;

export class CreateWebhookRequest {
  @IsString()
  @MaxLength(2048)
  url: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(EVENT_NAMES.length)
  @IsIn(EVENT_NAMES, { each: true, message: EVENT_MESSAGE })
  events: EventName[];

  @IsIn(WEBHOOK_VERSIONS, { message: 'webhook_version must be v1 or v2' })
  webhook_version: WebhookVersion;
}

export class UpdateWebhookRequest {
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(EVENT_NAMES.length)
  @IsIn(EVENT_NAMES, { each: true, message: EVENT_MESSAGE })
  events?: EventName[];

  @IsOptional()
  @IsIn(WEBHOOK_VERSIONS, { message: 'webhook_version must be v1 or v2' })
  webhook_version?: WebhookVersion;

  /** Issues a new signing secret (returned once); the old one keeps signing during the grace period. */
  @IsOptional()
  @IsBoolean()
  rotate_secret?: boolean;
}

export class TestWebhookRequest {
  @IsString()
  @MaxLength(64)
  webhook_id: string;
}

export interface WebhookResponse {
  id: string;
  url: string;
  events: EventName[];
  webhook_version: WebhookVersion;
  mode: 'test' | 'live';
  created_at: string;
  updated_at: string;
  /** Present only in the response that created it or rotated it: store it, it is never shown again. */
  secret?: string;
  /** While a rotated-out secret still signs deliveries (a second `v1=` in the signature header). */
  previous_secret_expires_at?: string | null;
}

export interface WebhookLogResponse {
  log_id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  attempt: number;
  trigger: 'automatic' | 'manual' | 'test';
  success: boolean;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_body: string | null;
  created_at: string;
}

/** Result of a test delivery or a manual retry: the receiver's body is never returned here. */
export interface WebhookAttemptResponse {
  log_id: string;
  event_id: string;
  success: boolean;
  status_code: number | null;
  latency_ms: number;
}
