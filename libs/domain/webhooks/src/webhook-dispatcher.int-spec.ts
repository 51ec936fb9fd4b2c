import type { INestApplicationContext } from '@nestjs/common';
import type { CustomerEventData } from '@gateway/contracts';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { ConfigModule, type DeveloperContext, inTransaction, type ManualClock } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { recordAttempts } from './attempt-records.statement';
import { EventsModule } from './events.module';
import { EventsService } from './events.service';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { WebhooksModule } from './webhooks.module';
import { WebhooksService } from './webhooks.service';

const RETRY_DELAYS_S = [60, 60];

/** A receiver on 127.0.0.1 whose answers the test holds and releases one by one. */
class HeldReceiver {
  requests = 0;
  private held: Array<(status: number) => void> = [];
  private arrivals: Array<() => void> = [];
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        this.requests += 1;
        this.held.push((status) => res.writeHead(status).end(`receiver says ${status}`));
        this.arrivals.splice(0).forEach((wake) => wake());
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}/hooks`;
  }

  /** Resolves once `count` requests arrived in all. */
  async arrived(count: number): Promise<void> {
    while (this.requests < count) await new Promise<void>((resolve) => this.arrivals.push(resolve));
  }

  /** Answers the oldest held request. */
  answer(status: number): void {
    const next = this.held.shift();
    if (!next) throw new Error('no request is waiting for an answer');
    next(status);
  }

  close(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

describe('WebhookDispatcher (attempts, leases, numbering)', () => {
  let app: INestApplicationContext;
  let clock: ManualClock;
  let dispatcher: WebhookDispatcher;
  let webhooks: WebhooksService;
  let events: EventsService;
  let dataSource: DataSource;
  let ctx: DeveloperContext;
  let receiver: HeldReceiver;
  let url: string;

  beforeAll(async () => {
    const config = ConfigModule.forRoot(
      testConfig({ ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, WEBHOOK_RETRY_SCHEDULE_SECONDS: RETRY_DELAYS_S.join(','), WEBHOOK_TIMEOUT_MS: '5000' }),
    );
    ({ app, clock } = await createDomainTestContext([config, DevelopersModule, EventsModule, WebhooksModule]));
    dispatcher = app.get(WebhookDispatcher);
    webhooks = app.get(WebhooksService);
    events = app.get(EventsService);
    dataSource = app.get(DataSource);
    const developer = await app.get(DevelopersService).create({ email: `dispatcher-${randomBytes(4).toString('hex')}@example.com`, name: 'D' });
    ctx = { developerId: developer.id, mode: 'test' };
    receiver = new HeldReceiver();
    url = await receiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  /** A fresh endpoint and one committed customer.created for it: the id of its pending delivery. */
  async function newDelivery(): Promise<{ deliveryId: string; endpointReference: string }> {
    const { endpoint } = await webhooks.create(ctx, { url, events: ['customer.created'], webhookVersion: 'v1' });
    const customer: CustomerEventData = { reference: `CUS_${randomBytes(4).toString('hex')}`, email: 'a@example.com', name: null, phone: null, metadata: {}, created_at: clock.now().toISOString() };
    const eventId = await inTransaction(dataSource, (m) => events.emit(m, ctx, 'customer.created', customer));
    const [row] = (await dataSource.query(`SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id = $2`, [endpoint.id, eventId])) as Array<{ id: string }>;
    return { deliveryId: row.id, endpointReference: endpoint.reference };
  }
  const delivery = async (id: string) =>
    (
      (await dataSource.query(`SELECT status, attempts, next_attempt_at AS "nextAttemptAt", lease_until AS "leaseUntil" FROM webhook_deliveries WHERE id = $1`, [id])) as Array<{
        status: string;
        attempts: number;
        nextAttemptAt: Date;
        leaseUntil: Date | null;
      }>
    )[0];
  const logs = (id: string) =>
    dataSource.query(`SELECT reference, attempt, trigger, success, status_code AS "statusCode", error FROM webhook_delivery_logs WHERE delivery_id = $1 ORDER BY attempt`, [id]) as Promise<
      Array<{ reference: string; attempt: number; trigger: string; success: boolean; statusCode: number | null; error: string | null }>
    >;
  const endpointOf = (reference: string) => webhooks.get(ctx, reference);

  it('a manual retry while an automatic attempt is in flight answers conflict and sends nothing; attempts are numbered 1, 2 from one sequence', async () => {
    const { deliveryId, endpointReference } = await newDelivery();
    const sentBefore = receiver.requests;

    const automatic = dispatcher.runScheduledAttempt(deliveryId);
    await receiver.arrived(sentBefore + 1);
    await expect(dispatcher.attemptNow({ id: deliveryId }, await endpointOf(endpointReference), 'manual')).rejects.toMatchObject({ code: 'conflict' });
    expect(receiver.requests).toBe(sentBefore + 1);
    receiver.answer(500);
    await automatic;
    expect(await delivery(deliveryId)).toMatchObject({ status: 'pending', attempts: 1, leaseUntil: null });

    // Now the other way round: a manual retry in flight, the automatic attempt falls due meanwhile.
    const [first] = await logs(deliveryId);
    const manual = webhooks.retry(ctx, first.reference);
    await receiver.arrived(sentBefore + 2);
    clock.advance(RETRY_DELAYS_S[0] * 1000);
    await dispatcher.runScheduledAttempt(deliveryId); // the lease is taken: nothing is sent
    expect(receiver.requests).toBe(sentBefore + 2);
    receiver.answer(200);
    expect(await manual).toMatchObject({ success: true, trigger: 'manual' });

    // Delivered: a due automatic job finds nothing to do; the manual retry did not move the schedule.
    await dispatcher.runScheduledAttempt(deliveryId);
    expect(receiver.requests).toBe(sentBefore + 2);
    expect(await delivery(deliveryId)).toMatchObject({ status: 'delivered', attempts: 1, leaseUntil: null });
    expect((await logs(deliveryId)).map((l) => [l.attempt, l.trigger, l.success])).toEqual([
      [1, 'automatic', false],
      [2, 'manual', true],
    ]);
  });

  it('the last automatic attempt failing after a manual retry delivered it (its lease had expired) leaves the delivery delivered, numbered once each', async () => {
    const { deliveryId, endpointReference } = await newDelivery();
    // Two automatic attempts already failed: the next one is the last of the schedule.
    await dataSource.query(`UPDATE webhook_deliveries SET attempts = $2 WHERE id = $1`, [deliveryId, RETRY_DELAYS_S.length]);
    const sentBefore = receiver.requests;

    const automatic = dispatcher.runScheduledAttempt(deliveryId);
    await receiver.arrived(sentBefore + 1);
    // The automatic attempt outlives its lease (a stalled worker): a manual retry may now run.
    await dataSource.query(`UPDATE webhook_deliveries SET lease_until = clock_timestamp() - interval '1 second' WHERE id = $1`, [deliveryId]);
    const manual = dispatcher.attemptNow({ id: deliveryId }, await endpointOf(endpointReference), 'manual');
    await receiver.arrived(sentBefore + 2);
    receiver.answer(500); // the automatic attempt (held first) fails…
    receiver.answer(200); // …the manual retry succeeds; which one records first is up to the race
    await Promise.all([automatic, manual]);

    expect(await delivery(deliveryId)).toMatchObject({ status: 'delivered', leaseUntil: null });
    const numbered = await logs(deliveryId);
    expect(numbered.map((l) => l.attempt)).toEqual([1, 2]);
    expect(numbered.map((l) => [l.trigger, l.success]).sort()).toEqual([
      ['automatic', false],
      ['manual', true],
    ]);
    // The moves are conditional: nothing turns a delivered delivery into a failed one.
    expect(await inTransaction(dataSource, (m) => app.get(WebhookDeliveriesRepository).move(m, deliveryId, 'fail', clock.now()))).toBe(false);
    expect(await delivery(deliveryId)).toMatchObject({ status: 'delivered' });
  });

  it('attempts of one delivery recorded in one batch are numbered after its earlier ones, in the batch\'s order', async () => {
    const { deliveryId, endpointReference } = await newDelivery();
    const endpoint = await endpointOf(endpointReference);
    const [{ eventId }] = (await dataSource.query(`SELECT event_id AS "eventId" FROM webhook_deliveries WHERE id = $1`, [deliveryId])) as Array<{ eventId: string }>;
    const log = (success: boolean) => ({
      reference: `whl_${randomBytes(12).toString('hex')}`,
      deliveryId,
      developerId: ctx.developerId,
      mode: ctx.mode,
      endpointId: endpoint.id,
      eventId,
      eventName: 'customer.created',
      trigger: 'manual' as const,
      success,
      statusCode: success ? 200 : 500,
      latencyMs: 1,
      error: success ? null : ('http_status' as const),
      responseBody: null,
      createdAt: clock.now(),
    });
    const record = (batch: Array<ReturnType<typeof log>>) =>
      inTransaction(dataSource, async (m) => recordAttempts(m, { logs: batch, deliveries: await app.get(WebhookDeliveriesRepository).lock(m, [deliveryId]), health: [] }));

    expect((await record([log(false)])).map((l) => l.attempt)).toEqual([1]);
    const written = await record([log(false), log(true)]);
    expect(written.map((l) => [l.attempt, l.success])).toEqual([
      [2, false],
      [3, true],
    ]);
    expect((await logs(deliveryId)).map((l) => [l.reference, l.attempt])).toEqual([[expect.any(String), 1], ...written.map((l) => [l.reference, l.attempt])]);
  });

  it('attempts running together are recorded together: each logged once, each delivery moved by its own outcome, the health counting all', async () => {
    const { deliveryId: firstId, endpointReference } = await newDelivery();
    const endpoint = await endpointOf(endpointReference);
    const customer = (i: number): CustomerEventData => ({ reference: `CUS_batch${i}`, email: 'a@example.com', name: null, phone: null, metadata: {}, created_at: clock.now().toISOString() });
    const more = await Promise.all([1, 2, 3, 4, 5].map((i) => inTransaction(dataSource, (m) => events.emit(m, ctx, 'customer.created', customer(i)))));
    const others = (await dataSource.query(`SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id = ANY ($2::text[])`, [endpoint.id, more])) as Array<{ id: string }>;
    const ids = [firstId, ...others.map((row) => row.id)];
    const sentBefore = receiver.requests;

    const running = ids.map((id) => dispatcher.runScheduledAttempt(id));
    await receiver.arrived(sentBefore + ids.length);
    for (const status of [200, 500, 200, 500, 200, 500]) receiver.answer(status);
    await Promise.all(running);

    const rows = await Promise.all(ids.map((id) => delivery(id)));
    expect(rows.map((row) => `${row.status} ${row.attempts} ${row.leaseUntil}`).sort()).toEqual([...Array(3).fill('delivered 1 null'), ...Array(3).fill('pending 1 null')]);
    const logged = await Promise.all(ids.map((id) => logs(id)));
    expect(logged.map((l) => l.map((a) => [a.attempt, a.trigger]))).toEqual(ids.map(() => [[1, 'automatic']]));
    expect(logged.flat().filter((a) => a.success)).toHaveLength(3);
    const [days] = (await dataSource.query(`SELECT sum(attempts)::int AS attempts, sum(succeeded)::int AS succeeded FROM webhook_endpoint_attempt_days WHERE endpoint_id = $1`, [
      endpoint.id,
    ])) as Array<{ attempts: number; succeeded: number }>;
    expect(days).toEqual({ attempts: 6, succeeded: 3 });
    expect(await endpointOf(endpointReference)).toMatchObject({ lastSuccessAt: expect.any(Date), lastFailureAt: expect.any(Date), consecutiveFailedDeliveries: 0 });
  });

  it('logs a failure before sending (the secret cannot be decrypted) as a failed attempt without the secret, and the schedule moves on to `failed`', async () => {
    const { deliveryId, endpointReference } = await newDelivery();
    const endpoint = await endpointOf(endpointReference);
    const unreadable = `v1.k9.${randomBytes(12).toString('base64url')}.${randomBytes(16).toString('base64url')}.${randomBytes(16).toString('base64url')}`;
    await dataSource.query(`UPDATE webhook_endpoints SET secret_ciphertext = $2 WHERE id = $1`, [endpoint.id, unreadable]);
    const sentBefore = receiver.requests;

    await dispatcher.runScheduledAttempt(deliveryId); // does not throw
    const [first] = await logs(deliveryId);
    // A class only: what went wrong is in the operator's log, never the secret or its ciphertext.
    expect(first).toMatchObject({ attempt: 1, trigger: 'automatic', success: false, statusCode: null, error: 'not_sent' });
    const after = await delivery(deliveryId);
    expect(after).toMatchObject({ status: 'pending', attempts: 1, leaseUntil: null });
    expect(after.nextAttemptAt.getTime()).toBe(clock.now().getTime() + RETRY_DELAYS_S[0] * 1000);
    // Not overdue, not leased: the sweeper leaves it to its schedule.
    expect((await dataSource.query(`SELECT 1 FROM webhook_deliveries WHERE id = $1 AND next_attempt_at <= $2`, [deliveryId, clock.now()])).length).toBe(0);

    for (const delay of RETRY_DELAYS_S) {
      clock.advance(delay * 1000);
      await dispatcher.runScheduledAttempt(deliveryId);
    }
    expect(await delivery(deliveryId)).toMatchObject({ status: 'failed', attempts: 3, leaseUntil: null });
    expect((await logs(deliveryId)).map((l) => [l.attempt, l.success])).toEqual([
      [1, false],
      [2, false],
      [3, false],
    ]);
    expect(receiver.requests).toBe(sentBefore);
    // A manual retry of it is logged the same way (and answers, rather than throwing).
    expect(await webhooks.retry(ctx, first.reference)).toMatchObject({ attempt: 4, success: false, error: 'not_sent' });
  });
});
