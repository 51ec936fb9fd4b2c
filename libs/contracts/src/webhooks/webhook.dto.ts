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

export class WebhookResponse {
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

export class WebhookDeletedResponse {
  id: string;
  deleted: true;
}

/**
 * Why an attempt failed, as a short class: never the receiver's or the socket's own words, which
 * would turn the delivery log into a probe of whatever the URL reaches.
 * `http_status`: answered, but not 2xx (see `status_code`; 3xx included, redirects are not followed);
 * `timeout`: no answer within the attempt's deadline; `dns`: the host does not resolve; `refused`:
 * the connection was refused; `tls`: the TLS handshake or certificate failed; `invalid_response`: the
 * answer was not HTTP; `connection`: any other network failure (reset, unreachable);
 * `url_not_allowed`: the URL rules refused the target at connect time (e.g. its host now resolves to
 * a private address); `not_sent`: the gateway could not prepare the attempt (its operator's logs say why).
 */
export const WEBHOOK_ATTEMPT_ERRORS = ['http_status', 'timeout', 'dns', 'refused', 'tls', 'invalid_response', 'connection', 'url_not_allowed', 'not_sent'] as const;
export type WebhookAttemptError = (typeof WEBHOOK_ATTEMPT_ERRORS)[number];

export class WebhookLogResponse {
  log_id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  attempt: number;
  trigger: 'automatic' | 'manual' | 'test';
  success: boolean;
  status_code: number | null;
  latency_ms: number;
  /** Why the attempt failed, as a short class (never the socket's or receiver's words); null when it succeeded. */
  error: WebhookAttemptError | null;
  /** The first 1024 characters of the answer, kept only from a target the live-mode URL rules accept. */
  response_body: string | null;
  created_at: string;
}

/** Result of a test delivery or a manual retry: the receiver's body is never returned here. */
export class WebhookAttemptResponse {
  log_id: string;
  event_id: string;
  success: boolean;
  status_code: number | null;
  latency_ms: number;
}
