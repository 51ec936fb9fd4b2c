/**
 * Compile-time checks of the typed surface (run by the `typecheck` target, not by Jest): each
 * `@ts-expect-error` fails the build if the line it marks ever starts compiling, i.e. if the SDK
 * stopped catching a call that does not fit the API's OpenAPI document.
 */
import type { Gateway } from './client.js';
import type { EventDataMap, EventName, WebhookEvent } from './webhooks/events.js';

export async function typedSurfaceChecks(gateway: Gateway, event: WebhookEvent): Promise<void> {
  const initialized = await gateway.post('/payments/initialize', { body: { amount: 5000, email: 'ada@example.com' } });
  const payment = await gateway.get('/payments/{reference}', { params: { path: { reference: initialized.reference } } });
  const status: 'pending' | 'cancelled' | 'success' | 'failed' | 'abandoned' | 'scheduled' = payment.status;
  void status;
  // @ts-expect-error amounts are JSON numbers, never strings
  await gateway.post('/payments/initialize', { body: { amount: '5000', email: 'ada@example.com' } });
  // @ts-expect-error email is required
  await gateway.post('/payments/initialize', { body: { amount: 5000 } });
  // @ts-expect-error the path parameter is required
  await gateway.get('/payments/{reference}');
  // @ts-expect-error not a route of the API (paths are relative to /api/v1)
  await gateway.get('/api/v1/payments');
  // @ts-expect-error the portal's routes are not in the SDK
  await gateway.get('/portal/keys');

  // The README's examples.
  const refund = await gateway.post('/refunds', { body: { payment_reference: payment.reference, amount: 1000 } });
  void refund.reference;
  await gateway.patch('/webhooks/{id}', { params: { path: { id: 'whk_1' } }, body: { rotate_secret: true } });
  await gateway.delete('/payments/{reference}/schedule', { params: { path: { reference: payment.reference } } });
  const verified = await gateway.request('post', '/payments/verify', { body: { reference: payment.reference } });
  void verified.status;
  const file = await gateway.client.GET('/exports/{reference}/download', { params: { path: { reference: 'EXP-1' } }, parseAs: 'blob' });
  void file.data?.size;

  for await (const p of gateway.list('/payments', { query: { status: 'success', limit: 100 } })) void p.reference;
  for await (const p of gateway.list('/customers/{ref}/payments', { path: { ref: 'CUS_1' } })) void p.amount;
  // @ts-expect-error a list under a customer needs the customer's reference
  void gateway.list('/customers/{ref}/payments');
  // @ts-expect-error the wallet balance is not a cursor-paginated list
  void gateway.list('/wallet/balance');
  // @ts-expect-error the cursor is the iterator's business
  void gateway.list('/payments', { query: { cursor: 'abc' } });
  // @ts-expect-error not a payment status
  void gateway.list('/payments', { query: { status: 'paid' } });

  if (event.event === 'payment.success') {
    const amount: number = 'api_version' in event ? event.data.amount : event.amount;
    void amount;
  }
  // @ts-expect-error not an event of the catalog
  if (event.event === 'payment.refunded') return;
}

/** Every event of the catalog (the names an endpoint subscribes to) has its object type. */
export const everyEventTyped: Exclude<EventName, keyof EventDataMap> extends never ? true : false = true;
