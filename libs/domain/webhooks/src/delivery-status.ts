import type { StatusMoves } from '@gateway/platform';
import type { DeliveryStatus } from './webhook.entities';

/**
 * Every status move of a delivery, by name (see StatusMoves). Each move is one conditional UPDATE
 * (WebhookDeliveriesRepository.move), so an attempt that finishes late can never undo another
 * one's outcome (a failing automatic attempt cannot turn a delivery a manual retry delivered back
 * into `failed`).
 */
export const DELIVERY_TRANSITIONS = {
  /** Any successful attempt. A manual retry may deliver a delivery whose schedule ran out. */
  deliver: { from: ['pending', 'failed'], to: 'delivered' },
  /** The last automatic attempt failed, a test or replayed attempt failed, or the endpoint is gone or disabled. */
  fail: { from: ['pending'], to: 'failed' },
  /** `POST /webhooks/{id}/replay`: one more attempt of a failed delivery, queued. */
  replay: { from: ['failed'], to: 'pending' },
} as const satisfies StatusMoves<DeliveryStatus>;

export type DeliveryTransition = keyof typeof DELIVERY_TRANSITIONS;
