/**
 * Compile-time checks of `EventsService.emit` (run by the `typecheck` target, not by Jest): each
 * `@ts-expect-error` below fails the build if the line it marks ever starts compiling, i.e. if
 * emit stopped catching a payload that differs from the contract's type for that event.
 */
import type { EventsService } from './events.service';

type Emit = EventsService['emit'];
type Args = Parameters<Emit>;

export function emitTypingChecks(emit: Emit, manager: Args[0], ctx: Args[1]): void {
  // @ts-expect-error batch.completed carries batch_reference and counts{pending,succeeded,failed}, not reference/succeeded/failed
  void emit(manager, ctx, 'batch.completed', { reference: 'BATCH_1', status: 'completed', total: 2, succeeded: 1, failed: 1 });
  // @ts-expect-error a payment carries fees{platform,provider} and email, not fee / customer_email
  void emit(manager, ctx, 'payment.success', { reference: 'PAY_1', status: 'success', amount: 100, currency: 'NGN', fee: 10, customer_email: 'a@example.com' });
  // @ts-expect-error a payment event does not carry a customer
  void emit(manager, ctx, 'payment.failed', { reference: 'CUS_1', email: 'a@example.com', name: null, phone: null, metadata: {}, created_at: '2025-01-01T00:00:00.000Z' });
  // @ts-expect-error transfer.success is in the catalog but no capability emits it yet (its object type is never)
  void emit(manager, ctx, 'transfer.success', { reference: 'TRF_1' });
  // @ts-expect-error webhook.test is sent by POST /webhooks/test/ only, never emitted
  void emit(manager, ctx, 'webhook.test', { webhook_id: 'whk_1', message: 'hi' });
}
