import type { Mode, WebhookVersion } from '@gateway/contracts';
import { pythonCompatibleJson } from './python-compatible-json';

export interface EventForDelivery {
  id: string;
  name: string;
  mode: Mode;
  data: Record<string, unknown>;
  createdAt: Date;
}

/**
 * The delivered body, canonical bytes (see pythonCompatibleJson). v1 is flat: the object's fields with
 * the event's own members (`event`, `id`, `created_at`, `mode`) taking precedence on a clash;
 * v2 nests the object under `data`.
 */
export function webhookBody(event: EventForDelivery, version: WebhookVersion): string {
  const meta = { event: event.name, id: event.id, created_at: event.createdAt.toISOString(), mode: event.mode };
  // Object.assign, not `{ ...event.data, ...meta }`: no key added after a spread (docs/benchmarks.md, "Keys added
  // after a spread"). The keys are sorted when written.
  const payload = version === 'v1' ? Object.assign({}, event.data, meta) : { api_version: 'v2', data: event.data, ...meta };
  return pythonCompatibleJson(payload);
}
