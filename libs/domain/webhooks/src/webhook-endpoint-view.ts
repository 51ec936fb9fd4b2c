import { type AttemptWindow, EMPTY_WINDOW } from './webhook-endpoint-health.repository';
import type { WebhookEndpointEntity } from './webhook.entities';

/** The success rate covers this many UTC days: today and the six before it. */
export const HEALTH_WINDOW_DAYS = 7;

/** An endpoint as the API shows it: its row (status and health) and its attempts over the window. */
export interface WebhookEndpointView {
  endpoint: WebhookEndpointEntity;
  window: AttemptWindow;
  /** Only in the answer that issued it. */
  secret?: string;
}

/** The first UTC day of the window ending on `now`'s day. */
export function healthWindowStart(now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (HEALTH_WINDOW_DAYS - 1) * 86_400_000);
}

export function viewOf(endpoint: WebhookEndpointEntity, windows: Map<string, AttemptWindow>, secret?: string): WebhookEndpointView {
  return { endpoint, window: windows.get(endpoint.id) ?? EMPTY_WINDOW, ...(secret ? { secret } : {}) };
}
