import type { EntityManager } from 'typeorm';
import type { DeliveryStatus } from './webhook.entities';

/**
 * Every status move of a delivery, and the statuses it may start from. Each move is one
 * conditional UPDATE, so an attempt that finishes late can never undo another one's outcome
 * (a failing automatic attempt cannot turn a delivery a manual retry delivered back into `failed`).
 */
export const DELIVERY_TRANSITIONS = {
  /** Any successful attempt. A manual retry may deliver a delivery whose schedule ran out. */
  deliver: ['pending', 'failed'],
  /** The last automatic attempt failed, a test delivery failed, or the endpoint is gone. */
  fail: ['pending'],
} as const satisfies Record<string, readonly DeliveryStatus[]>;

export type DeliveryTransition = keyof typeof DELIVERY_TRANSITIONS;

const TARGET: Record<DeliveryTransition, DeliveryStatus> = { deliver: 'delivered', fail: 'failed' };

/** Applies the move if the delivery is in one of its starting statuses; true when it moved. */
export async function moveDelivery(m: EntityManager, deliveryId: string, transition: DeliveryTransition, at: Date): Promise<boolean> {
  const [rows] = (await m.query(`UPDATE webhook_deliveries SET status = $2, completed_at = $3 WHERE id = $1 AND status = ANY ($4::text[]) RETURNING id`, [
    deliveryId,
    TARGET[transition],
    at,
    DELIVERY_TRANSITIONS[transition],
  ])) as [unknown[], number];
  return rows.length > 0;
}

/** The same move for every delivery of an endpoint (the endpoint was deleted). */
export async function moveEndpointDeliveries(m: EntityManager, endpointId: string, transition: DeliveryTransition, at: Date): Promise<void> {
  await m.query(`UPDATE webhook_deliveries SET status = $2, completed_at = $3 WHERE endpoint_id = $1 AND status = ANY ($4::text[])`, [
    endpointId,
    TARGET[transition],
    at,
    DELIVERY_TRANSITIONS[transition],
  ]);
}
