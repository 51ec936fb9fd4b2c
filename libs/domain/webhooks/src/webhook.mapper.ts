import type { EventName, RequestTraceEventResponse, WebhookAttemptResponse, WebhookHealthResponse, WebhookLogResponse, WebhookResponse } from '@gateway/contracts';
import type { RequestEvent } from './request-events';
import { HEALTH_WINDOW_DAYS, type WebhookEndpointView } from './webhook-endpoint-view';
import type { WebhookDeliveryLogEntity, WebhookEndpointEntity } from './webhook.entities';

/** The only bridge from an endpoint row to the wire; the secret appears only when just issued. */
export function toWebhookResponse({ endpoint, window, secret }: WebhookEndpointView): WebhookResponse {
  return {
    id: endpoint.reference,
    url: endpoint.url,
    events: endpoint.events as EventName[],
    webhook_version: endpoint.webhookVersion,
    mode: endpoint.mode,
    status: endpoint.status,
    disabled_at: endpoint.disabledAt?.toISOString() ?? null,
    disabled_reason: endpoint.disabledReason,
    health: toWebhookHealthResponse({ endpoint, window }),
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
    previous_secret_expires_at: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    ...(secret ? { secret } : {}),
  };
}

function toWebhookHealthResponse({ endpoint, window }: WebhookEndpointView): WebhookHealthResponse {
  return {
    window_days: HEALTH_WINDOW_DAYS,
    attempts: window.attempts,
    succeeded_attempts: window.succeeded,
    // A ratio of two counts, not money: a float is what it is.
    success_rate: window.attempts === 0 ? null : Math.round((window.succeeded / window.attempts) * 10_000) / 10_000,
    last_success_at: endpoint.lastSuccessAt?.toISOString() ?? null,
    last_failure_at: endpoint.lastFailureAt?.toISOString() ?? null,
    last_failure_error: endpoint.lastFailureError,
    last_failure_status_code: endpoint.lastFailureStatusCode,
    consecutive_failed_deliveries: endpoint.consecutiveFailedDeliveries,
    failing_since: endpoint.failingSince?.toISOString() ?? null,
  };
}

export function toWebhookLogResponse({ log, endpoint }: { log: WebhookDeliveryLogEntity; endpoint: WebhookEndpointEntity }): WebhookLogResponse {
  return {
    log_id: log.reference,
    webhook_id: endpoint.reference,
    event_id: log.eventId,
    event: log.eventName,
    attempt: log.attempt,
    trigger: log.trigger,
    success: log.success,
    status_code: log.statusCode,
    latency_ms: log.latencyMs,
    error: log.error,
    response_body: log.responseBody,
    created_at: log.createdAt.toISOString(),
  };
}

/** Status and latency only: the receiver's body stays in the logs. */
export function toWebhookAttemptResponse(log: WebhookDeliveryLogEntity): WebhookAttemptResponse {
  return { log_id: log.reference, event_id: log.eventId, success: log.success, status_code: log.statusCode, latency_ms: log.latencyMs };
}

/** An event of a request's trace: its deliveries and their attempts (without the receivers' answers). */
export function toRequestTraceEventResponse({ event, deliveries }: RequestEvent): RequestTraceEventResponse {
  return {
    id: event.id,
    event: event.name,
    created_at: event.createdAt.toISOString(),
    deliveries: deliveries.map(({ delivery, attempts }) => ({
      webhook_id: delivery.endpointReference,
      url: delivery.endpointUrl,
      status: delivery.status,
      attempts: attempts.map((log) => ({
        log_id: log.reference,
        attempt: log.attempt,
        trigger: log.trigger,
        success: log.success,
        status_code: log.statusCode,
        latency_ms: log.latencyMs,
        error: log.error,
        created_at: log.createdAt.toISOString(),
      })),
    })),
  };
}
