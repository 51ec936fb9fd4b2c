import type { WebhookVersion } from '@gateway/contracts';
import { signatureHeader } from './signature';
import { type EventForDelivery, webhookBody } from './webhook-payload';

/** What one delivery of an event sends: the canonical body and its signed headers. */
export interface DeliveryRequest {
  body: string;
  headers: Record<string, string>;
}

/**
 * The body of `event` in `version`, signed at `timestamp` (unix seconds) with each of `secrets`
 * (two during a secret rotation's grace period). The dispatcher sends exactly this, and so does
 * the sandbox CLI's `listen` when it forwards an event to a local server, so a receiver tested
 * against one verifies the other.
 */
export function deliveryRequest(event: EventForDelivery, version: WebhookVersion, secrets: readonly string[], timestamp: number): DeliveryRequest {
  const body = webhookBody(event, version);
  return {
    body,
    headers: {
      'x-gateway-signature': signatureHeader(secrets, timestamp, body),
      'x-gateway-timestamp': String(timestamp),
      'x-gateway-event-id': event.id,
      'x-gateway-event': event.name,
    },
  };
}
