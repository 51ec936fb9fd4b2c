import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { type CustomerEventData, REQUEST_TRACE_MAX_EVENTS } from '@gateway/contracts';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { ConfigModule, type DeveloperContext, inTransaction, type ManualClock } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EventsModule } from './events.module';
import { EventsService } from './events.service';
import { WebhooksModule } from './webhooks.module';
import { WebhooksService } from './webhooks.service';

const customer = (reference: string): CustomerEventData => ({ reference, email: 'a@example.com', name: null, phone: null, metadata: {}, created_at: '2025-03-14T09:20:00.000Z' });
const newRequestId = () => `req_${randomBytes(16).toString('hex')}`;

/** Events record the API request that emitted them, and a request's trace reads them back with their deliveries. */
describe('the events of a request', () => {
  let app: INestApplicationContext;
  let dataSource: DataSource;
  let events: EventsService;
  let webhooks: WebhooksService;
  let ctx: DeveloperContext;
  let other: DeveloperContext;
  let clock: ManualClock;

  beforeAll(async () => {
    ({ app, clock } = await createDomainTestContext([ConfigModule.forRoot(testConfig({ ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}` })), DevelopersModule, EventsModule, WebhooksModule]));
    dataSource = app.get(DataSource);
    events = app.get(EventsService);
    webhooks = app.get(WebhooksService);
    const developers = app.get(DevelopersService);
    ctx = { developerId: (await developers.create({ email: `trace-${randomBytes(4).toString('hex')}@example.com`, name: 'T' })).id, mode: 'test' };
    other = { developerId: (await developers.create({ email: `trace-other-${randomBytes(4).toString('hex')}@example.com`, name: 'O' })).id, mode: 'test' };
  });
  afterAll(() => app?.close());

  const emit = (requestId: string | null, reference: string, tenant = ctx) =>
    inTransaction(dataSource, (m) => events.emit(m, requestId ? { ...tenant, requestId } : tenant, 'customer.created', customer(reference)));
  const storedRequestId = async (eventId: string) => ((await dataSource.query(`SELECT request_id FROM events WHERE id = $1`, [eventId])) as Array<{ request_id: string | null }>)[0].request_id;

  it('records the request of its context on each event it emits, and none for work of no request', async () => {
    const requestId = newRequestId();
    const inside = await emit(requestId, 'CUS_IN');
    const outside = await emit(null, 'CUS_OUT');
    expect(await storedRequestId(inside)).toBe(requestId);
    expect(await storedRequestId(outside)).toBeNull();
  });

  it("lists a request's events oldest first, each with its delivery to every subscribed endpoint, and nothing of another account or mode", async () => {
    const { endpoint } = await webhooks.create(ctx, { url: 'http://127.0.0.1:9/hooks', events: ['customer.created'], webhookVersion: 'v2' });
    const requestId = newRequestId();
    // Ids are random, so five events in id order are in time order only by a 1-in-120 chance: the order comes from the time.
    const emitted: string[] = [];
    for (let i = 0; i < 5; i++) {
      emitted.push(await emit(requestId, `CUS_${i}`));
      clock.advance(1);
    }
    // The same request id in another account (ids are random, so this is only a test of the filter).
    await emit(requestId, 'CUS_OTHER', other);

    const traced = await webhooks.eventsForRequest(ctx, requestId);
    expect(traced.truncated).toBe(false);
    expect(traced.events.map((e) => e.event.id)).toEqual(emitted);
    for (const { event, deliveries } of traced.events) {
      expect(event.name).toBe('customer.created');
      // Queued, not yet attempted: no worker runs here.
      expect(deliveries).toEqual([{ delivery: expect.objectContaining({ eventId: event.id, status: 'pending', endpointReference: endpoint.reference, endpointUrl: endpoint.url }), attempts: [] }]);
    }
    expect((await webhooks.eventsForRequest(other, requestId)).events).toHaveLength(1);
    expect((await webhooks.eventsForRequest({ ...ctx, mode: 'live' }, requestId)).events).toEqual([]);
    expect((await webhooks.eventsForRequest(ctx, newRequestId())).events).toEqual([]);
  });

  it('shows each attempt of a delivery: a test send made during a request', async () => {
    const { endpoint } = await webhooks.create(ctx, { url: 'http://127.0.0.1:9/test-target', events: ['customer.created'], webhookVersion: 'v1' });
    const requestId = newRequestId();
    const log = await webhooks.sendTest({ ...ctx, requestId }, endpoint.reference);

    const [traced] = (await webhooks.eventsForRequest(ctx, requestId)).events;
    expect(traced.event).toMatchObject({ id: log.eventId, name: 'webhook.test' });
    expect(traced.deliveries).toHaveLength(1);
    expect(traced.deliveries[0].delivery.endpointReference).toBe(endpoint.reference);
    expect(traced.deliveries[0].attempts).toEqual([expect.objectContaining({ reference: log.reference, attempt: 1, trigger: 'test', success: log.success, statusCode: log.statusCode })]);
  });

  it(`lists at most ${REQUEST_TRACE_MAX_EVENTS} events and says when there were more`, async () => {
    const requestId = newRequestId();
    const ids: string[] = [];
    await inTransaction(dataSource, async (m) => {
      for (let i = 0; i <= REQUEST_TRACE_MAX_EVENTS; i++) ids.push(await events.emit(m, { ...ctx, requestId }, 'customer.created', customer(`CUS_MANY_${i}`)));
    });
    const traced = await webhooks.eventsForRequest(ctx, requestId);
    expect(traced.truncated).toBe(true);
    expect(traced.events).toHaveLength(REQUEST_TRACE_MAX_EVENTS);
    // One transaction, one clock reading: the order falls back to the ids, the same on every read.
    expect(traced.events.map((e) => e.event.id)).toEqual([...ids].sort().slice(0, REQUEST_TRACE_MAX_EVENTS));
  });
});
