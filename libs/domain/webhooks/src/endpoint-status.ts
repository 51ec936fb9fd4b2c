import type { WebhookEndpointStatus } from '@gateway/contracts';
import type { StatusMoves } from '@gateway/platform';

/**
 * Every status move of a webhook endpoint, by name (see StatusMoves). Each is one conditional
 * UPDATE (WebhookEndpointsRepository.move), so a disabling scan and an owner's re-enabling that
 * race are decided by the database.
 */
export const ENDPOINT_TRANSITIONS = {
  /** The failing-endpoints scan: its deliveries kept failing for the configured count and days. */
  disable: { from: ['enabled'], to: 'disabled' },
  /** Its owner, once the receiver is fixed (`POST /webhooks/{id}/enable`). */
  enable: { from: ['disabled'], to: 'enabled' },
} as const satisfies StatusMoves<WebhookEndpointStatus>;

export type EndpointTransition = keyof typeof ENDPOINT_TRANSITIONS;
