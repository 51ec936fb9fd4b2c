import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsISO8601, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
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

/** `enabled`: events are delivered; `disabled`: the gateway stopped delivering after a run of failures (re-enable with `POST /webhooks/{id}/enable`). */
export const WEBHOOK_ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

/** Why an endpoint was disabled: `consecutive_failures`, its deliveries kept failing for the configured count and days. */
export const WEBHOOK_DISABLED_REASONS = ['consecutive_failures'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

/** How deliveries to an endpoint are going (docs/webhooks.md, "Endpoint health"). */
export class WebhookHealthResponse {
  /** The span `attempts`, `succeeded_attempts` and `success_rate` cover, in UTC days: today and the days before it. */
  window_days: number;
  /** Attempts in the window, whatever their trigger (automatic, manual, test, replay). */
  attempts: number;
  succeeded_attempts: number;
  /** succeeded_attempts / attempts, rounded to 4 decimals; null without any attempt in the window. */
  success_rate: number | null;
  last_success_at: string | null;
  last_failure_at: string | null;
  /** The last failed attempt's class (as in the delivery log's `error`). */
  last_failure_error: WebhookAttemptError | null;
  /** The last failed attempt's HTTP status, when the receiver answered. */
  last_failure_status_code: number | null;
  /**
   * Deliveries that ended `failed` (their retry schedule ran out) since the endpoint's last
   * successful attempt or its re-enabling: the run that disables an endpoint. A test delivery never counts.
   */
  consecutive_failed_deliveries: number;
  /** The first failed attempt of the current run; null while the endpoint is healthy. */
  failing_since: string | null;
}

export class WebhookResponse {
  id: string;
  url: string;
  events: EventName[];
  webhook_version: WebhookVersion;
  mode: 'test' | 'live';
  status: WebhookEndpointStatus;
  /** When the gateway disabled it; null while enabled. */
  disabled_at: string | null;
  disabled_reason: WebhookDisabledReason | null;
  health: WebhookHealthResponse;
  created_at: string;
  updated_at: string;
  /** Present only in the response that created it or rotated it: store it, it is never shown again. */
  secret?: string;
  /** While a rotated-out secret still signs deliveries (a second `v1=` in the signature header). */
  previous_secret_expires_at?: string | null;
}

export class ReplayWebhookRequest {
  /** Every delivery to the endpoint created at or after this instant that ended `failed` is sent again. ISO 8601 with a time zone; in the past, within WEBHOOK_REPLAY_WINDOW_DAYS. */
  @IsString()
  @MaxLength(40)
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 date-time' })
  // A zone-less time would be read in the server's own zone: say which instant.
  @Matches(/T.+(Z|[+-]\d{2}:?\d{2})$/i, { message: 'since must be a date-time with a time zone, e.g. 2025-03-14T09:00:00Z' })
  since: string;
}

export class ReplayWebhookResponse {
  webhook_id: string;
  since: string;
  /** Failed deliveries queued for one new attempt each (same event ids), by this request. */
  queued: number;
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
  /** `replay`: queued by `POST /webhooks/{id}/replay`. */
  trigger: 'automatic' | 'manual' | 'test' | 'replay';
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
