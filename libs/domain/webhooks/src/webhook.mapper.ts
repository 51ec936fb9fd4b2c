import type { EventName, WebhookAttemptResponse, WebhookLogResponse, WebhookResponse } from '@gateway/contracts';
import type { WebhookDeliveryLogEntity, WebhookEndpointEntity } from './webhook.entities';

/** The only bridge from an endpoint row to the wire; the secret appears only when just issued. */
export function toWebhookResponse(endpoint: WebhookEndpointEntity, secret?: string): WebhookResponse {
  return {
    id: endpoint.reference,
    url: endpoint.url,
    events: endpoint.events as EventName[],
    webhook_version: endpoint.webhookVersion,
    mode: endpoint.mode,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
    previous_secret_expires_at: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    ...(secret ? { secret } : {}),
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
