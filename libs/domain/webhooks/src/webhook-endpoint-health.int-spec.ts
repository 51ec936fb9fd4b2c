import type { INestApplicationContext } from '@nestjs/common';
import type { CustomerEventData, WebhookResponse } from '@gateway/contracts';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { ConfigModule, type DeveloperContext, inTransaction, type ManualClock } from '@gateway/platform';
import { createDomainTestContext, genericPlan, statementsRun, testConfig } from '@gateway/platform/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { recordAttempts } from './attempt-records.statement';
import { EventsService } from './events.service';
import { FAIL_BATCH } from './webhook-deliveries.repository';
import type { AttemptHealth } from './webhook-endpoint-health.repository';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { REPLAY_BATCH, WebhookRecoveryService } from './webhook-recovery.service';
import { toWebhookResponse } from './webhook.mapper';
import { WebhooksModule } from './webhooks.module';
import { WebhooksService } from './webhooks.service';

const DAY_MS = 86_400_000;
const RETRY_DELAY_S = 60;

/** A receiver on 127.0.0.1 answering `status` to everything. */
class Receiver {
  status = 500;
  requests: string[] = [];
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        this.requests.push(String(req.headers['x-gateway-event-id']));
        res.writeHead(this.status).end();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}/hooks`;
  }

  close(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

describe('webhook endpoint health: counters, disabling, enabling, replay', () => {
  let app: INestApplicationContext;
  let clock: ManualClock;
  let dispatcher: WebhookDispatcher;
  let webhooks: WebhooksService;
  let recovery: WebhookRecoveryService;
  let events: EventsService;
  let dataSource: DataSource;
  let developers: DevelopersService;
  let receiver: Receiver;
  let url: string;

  beforeAll(async () => {
    const config = ConfigModule.forRoot(
      testConfig({
        ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
        WEBHOOK_RETRY_SCHEDULE_SECONDS: String(RETRY_DELAY_S),
        WEBHOOK_TIMEOUT_MS: '5000',
        WEBHOOK_DISABLE_AFTER_FAILURES: '3',
        WEBHOOK_DISABLE_AFTER_DAYS: '2',
        WEBHOOK_REPLAY_WINDOW_DAYS: '30',
      }),
    );
    ({ app, clock } = await createDomainTestContext([config, DevelopersModule, WebhooksModule]));
    dispatcher = app.get(WebhookDispatcher);
    webhooks = app.get(WebhooksService);
    recovery = app.get(WebhookRecoveryService);
    events = app.get(EventsService);
    dataSource = app.get(DataSource);
    developers = app.get(DevelopersService);
    receiver = new Receiver();
    url = await receiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });
  beforeEach(() => {
    receiver.status = 500;
  });

  const newTenant = async (): Promise<DeveloperContext> => {
    const developer = await developers.create({ email: `health-${randomBytes(4).toString('hex')}@example.com`, name: 'H' });
    return { developerId: developer.id, mode: 'test' };
  };
  const customer = (): CustomerEventData => ({ reference: `CUS_${randomBytes(4).toString('hex')}`, email: 'a@example.com', name: null, phone: null, metadata: {}, created_at: clock.now().toISOString() });
  const emitCustomer = (ctx: DeveloperContext) => inTransaction(dataSource, (m) => events.emit(m, ctx, 'customer.created', customer()));
  const deliveryOf = async (endpointId: string, eventId: string) =>
    ((await dataSource.query(`SELECT id, status, replay_requested_at AS "replayRequestedAt" FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id = $2`, [endpointId, eventId])) as Array<{
      id: string;
      status: string;
      replayRequestedAt: Date | null;
    }>)[0];
  const statusOf = async (deliveryId: string) => ((await dataSource.query(`SELECT status FROM webhook_deliveries WHERE id = $1`, [deliveryId])) as Array<{ status: string }>)[0].status;
  const shown = async (ctx: DeveloperContext, reference: string): Promise<WebhookResponse> => toWebhookResponse(await webhooks.view(ctx, reference));
  /** Runs one delivery through its whole schedule against the receiver's current answer. */
  const runSchedule = async (deliveryId: string) => {
    await dispatcher.runScheduledAttempt(deliveryId);
    clock.advance(RETRY_DELAY_S * 1000);
    await dispatcher.runScheduledAttempt(deliveryId);
  };
  /** `count` deliveries of the endpoint that already ended failed, created from `from` a millisecond apart (as a long outage leaves them). */
  const arrangeFailedDeliveries = async (ctx: DeveloperContext, endpointId: string, count: number, from: Date): Promise<string[]> => {
    const rows = (await dataSource.query(
      `WITH ev AS (
         INSERT INTO events (id, developer_id, mode, name, data, created_at)
         SELECT 'evt_' || substr(md5(random()::text || g), 1, 24), $1, $2, 'customer.created', '{}'::jsonb, $4::timestamptz + g * interval '1 millisecond'
           FROM generate_series(1, $5::int) g
         RETURNING id, created_at)
       INSERT INTO webhook_deliveries (developer_id, mode, endpoint_id, event_id, status, attempts, next_attempt_at, created_at, completed_at)
       SELECT $1, $2, $3, ev.id, 'failed', 2, ev.created_at, ev.created_at, ev.created_at FROM ev
       RETURNING id`,
      [ctx.developerId, ctx.mode, endpointId, from, count],
    )) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  };
  /** Of these deliveries, those a dispatcher's next claim takes for a replayed attempt. */
  const dueForReplay = async (deliveryIds: string[]) =>
    (
      (await dataSource.query(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE id = ANY ($1::uuid[]) AND status = 'pending' AND replay_requested_at IS NOT NULL AND next_attempt_at <= $2 AND lease_until IS NULL`,
        [deliveryIds, clock.now()],
      )) as Array<{ n: number }>
    )[0].n;

  it('keeps the health of an endpoint: a failed delivery joins the run once its schedule runs out, a success ends the run, test deliveries never count as deliveries', async () => {
    const ctx = await newTenant();
    const { endpoint } = await webhooks.create(ctx, { url, events: ['customer.created'], webhookVersion: 'v1' });
    expect((await shown(ctx, endpoint.reference)).health).toEqual({
      window_days: 7,
      attempts: 0,
      succeeded_attempts: 0,
      success_rate: null,
      last_success_at: null,
      last_failure_at: null,
      last_failure_error: null,
      last_failure_status_code: null,
      consecutive_failed_deliveries: 0,
      failing_since: null,
    });

    const firstFailureAt = clock.now();
    const first = await deliveryOf(endpoint.id, await emitCustomer(ctx));
    await dispatcher.runScheduledAttempt(first.id);
    // One failed attempt: the run has begun, but no delivery has failed yet (a retry is due).
    expect((await shown(ctx, endpoint.reference)).health).toMatchObject({
      attempts: 1,
      succeeded_attempts: 0,
      success_rate: 0,
      last_failure_at: firstFailureAt.toISOString(),
      last_failure_error: 'http_status',
      last_failure_status_code: 500,
      consecutive_failed_deliveries: 0,
      failing_since: firstFailureAt.toISOString(),
    });
    clock.advance(RETRY_DELAY_S * 1000);
    await dispatcher.runScheduledAttempt(first.id);
    expect(await statusOf(first.id)).toBe('failed');
    const second = await deliveryOf(endpoint.id, await emitCustomer(ctx));
    await runSchedule(second.id);
    // A failed test delivery is a failed attempt, not a delivery of the run.
    await webhooks.sendTest(ctx, endpoint.reference);
    expect((await shown(ctx, endpoint.reference)).health).toMatchObject({ attempts: 5, succeeded_attempts: 0, consecutive_failed_deliveries: 2, failing_since: firstFailureAt.toISOString() });

    receiver.status = 200;
    clock.advance(1000);
    await webhooks.sendTest(ctx, endpoint.reference);
    const healed = (await shown(ctx, endpoint.reference)).health;
    expect(healed).toMatchObject({ attempts: 6, succeeded_attempts: 1, success_rate: 0.1667, last_success_at: clock.now().toISOString(), consecutive_failed_deliveries: 0, failing_since: null });
    // The last failure stays on record after the recovery.
    expect(healed.last_failure_error).toBe('http_status');

    // The window is the last seven UTC days: a week on, these attempts are out of it; the rest stays.
    clock.advance(7 * DAY_MS);
    expect((await shown(ctx, endpoint.reference)).health).toMatchObject({ attempts: 0, success_rate: null, last_success_at: healed.last_success_at });
  });

  it('disables an endpoint once its run is long enough in count AND days, in one transaction with its event; its pending deliveries stop and new events skip it', async () => {
    const ctx = await newTenant();
    const { endpoint: failing } = await webhooks.create(ctx, { url: `${url}?failing`, events: ['customer.created', 'webhook_endpoint.disabled'], webhookVersion: 'v2' });
    const { endpoint: watcher } = await webhooks.create(ctx, { url: `${url}?watcher`, events: ['webhook_endpoint.disabled'], webhookVersion: 'v1' });
    const { endpoint: short } = await webhooks.create(ctx, { url: `${url}?short`, events: ['customer.created'], webhookVersion: 'v1' });
    const pending = await deliveryOf(failing.id, await emitCustomer(ctx));
    // Arranged runs: the failing one has the count; the short one has the days but not the count.
    await dataSource.query(`UPDATE webhook_endpoints SET consecutive_failed_deliveries = 3, failing_since = $2 WHERE id = $1`, [failing.id, clock.now()]);
    await dataSource.query(`UPDATE webhook_endpoints SET consecutive_failed_deliveries = 2, failing_since = $2 WHERE id = $1`, [short.id, new Date(clock.now().getTime() - 10 * DAY_MS)]);

    const scan = () => inTransaction(dataSource, (m) => recovery.disableFailing(m, 50));
    clock.advance(2 * DAY_MS - 1000);
    expect((await scan()).filter((d) => d.developerId === ctx.developerId)).toEqual([]); // three failures, but not yet two days
    clock.advance(1000);
    const disabled = (await scan()).filter((d) => d.developerId === ctx.developerId);
    expect(disabled).toEqual([
      { developerId: ctx.developerId, mode: 'test', reference: failing.reference, urlHost: new URL(url).host, failedDeliveries: 3, failingSince: expect.any(Date), disabledAt: clock.now(), eventId: expect.stringMatching(/^evt_/) },
    ]);
    expect(await scan()).toEqual([]); // once

    const shownFailing = await shown(ctx, failing.reference);
    expect(shownFailing).toMatchObject({ status: 'disabled', disabled_at: clock.now().toISOString(), disabled_reason: 'consecutive_failures' });
    expect((await shown(ctx, short.reference)).status).toBe('enabled');
    // Its pending retry stopped; a replay after re-enabling finds it among the failed.
    expect(await statusOf(pending.id)).toBe('failed');

    // The event: the endpoint as GET shows it, delivered to the other subscribed endpoint only.
    const [event] = (await dataSource.query(`SELECT name, data FROM events WHERE id = $1`, [disabled[0].eventId])) as Array<{ name: string; data: WebhookResponse }>;
    expect(event).toEqual({ name: 'webhook_endpoint.disabled', data: { ...JSON.parse(JSON.stringify(shownFailing)), webhook_id: failing.reference } });
    expect(await deliveryOf(watcher.id, disabled[0].eventId)).toMatchObject({ status: 'pending' });
    expect(await deliveryOf(failing.id, disabled[0].eventId)).toBeUndefined();

    // New events are not fanned out to it; the enabled endpoint still gets them.
    const later = await emitCustomer(ctx);
    expect(await deliveryOf(failing.id, later)).toBeUndefined();
    expect(await deliveryOf(short.id, later)).toMatchObject({ status: 'pending' });
    // A job queued before the disabling finds the endpoint disabled and sends nothing.
    const sent = receiver.requests.length;
    await dataSource.query(`UPDATE webhook_deliveries SET status = 'pending' WHERE id = $1`, [pending.id]);
    await dispatcher.runScheduledAttempt(pending.id);
    expect(receiver.requests.length).toBe(sent);
    expect(await statusOf(pending.id)).toBe('failed');

    // A replay is refused while it is disabled; enabling starts a fresh run, once.
    await expect(recovery.replay(ctx, failing.reference, new Date(clock.now().getTime() - DAY_MS))).rejects.toMatchObject({ code: 'invalid_state' });
    const enabled = toWebhookResponse(await recovery.enable(ctx, failing.reference));
    expect(enabled).toMatchObject({ status: 'enabled', disabled_at: null, disabled_reason: null, health: { consecutive_failed_deliveries: 0, failing_since: null } });
    await expect(recovery.enable(ctx, failing.reference)).rejects.toMatchObject({ code: 'invalid_state' });
    await expect(recovery.enable(await newTenant(), failing.reference)).rejects.toMatchObject({ code: 'webhook_not_found' });
    expect(await deliveryOf(failing.id, await emitCustomer(ctx))).toMatchObject({ status: 'pending' });
  });

  it("fails a disabled endpoint's whole pending backlog in batches, found through the pending deliveries' index", async () => {
    const ctx = await newTenant();
    const { endpoint } = await webhooks.create(ctx, { url: `${url}?backlog`, events: ['customer.created'], webhookVersion: 'v1' });
    const { endpoint: other } = await webhooks.create(ctx, { url: `${url}?other`, events: ['customer.created'], webhookVersion: 'v1' });
    const backlog = 2 * FAIL_BATCH + 500;
    const arrange = (endpointId: string, status: string, count: number) =>
      dataSource.query(
        `WITH ev AS (
           INSERT INTO events (id, developer_id, mode, name, data, created_at)
           SELECT 'evt_' || substr(md5(random()::text || g), 1, 24), $1, $2, 'customer.created', '{}'::jsonb, $5 FROM generate_series(1, $6::int) g
           RETURNING id, created_at)
         INSERT INTO webhook_deliveries (developer_id, mode, endpoint_id, event_id, status, attempts, next_attempt_at, created_at)
         SELECT $1, $2, $3, ev.id, $4, 1, ev.created_at, ev.created_at FROM ev`,
        [ctx.developerId, ctx.mode, endpointId, status, clock.now(), count],
      );
    await arrange(endpoint.id, 'pending', backlog);
    await arrange(endpoint.id, 'delivered', 300);
    await arrange(other.id, 'pending', 5);
    await dataSource.query(`UPDATE webhook_endpoints SET consecutive_failed_deliveries = 5, failing_since = $2 WHERE id = $1`, [endpoint.id, new Date(clock.now().getTime() - 3 * DAY_MS)]);

    const failing = await statementsRun(
      async () => expect((await inTransaction(dataSource, (m) => recovery.disableFailing(m, 50))).map((d) => d.reference)).toContain(endpoint.reference),
      (sql) => /^\s*UPDATE webhook_deliveries SET status/.test(sql),
    );
    const counts = (endpointId: string) =>
      dataSource.query(`SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 GROUP BY status ORDER BY status`, [endpointId]);
    expect(await counts(endpoint.id)).toEqual([
      { status: 'delivered', n: 300 },
      { status: 'failed', n: backlog },
    ]);
    expect(await counts(other.id)).toEqual([{ status: 'pending', n: 5 }]);
    // Three batches of one statement which, planned without its values (as a prepared statement would be), can read the pending index.
    expect(failing).toHaveLength(3);
    const plan = await genericPlan(dataSource, failing[0][0], failing[0][1], { enable_seqscan: 'off' });
    expect(plan).toContain('webhook_deliveries_due');
  });

  it('two scans at once disable an endpoint once, with one event', async () => {
    const ctx = await newTenant();
    const { endpoint } = await webhooks.create(ctx, { url, events: ['customer.created'], webhookVersion: 'v1' });
    await dataSource.query(`UPDATE webhook_endpoints SET consecutive_failed_deliveries = 5, failing_since = $2 WHERE id = $1`, [endpoint.id, new Date(clock.now().getTime() - 3 * DAY_MS)]);
    const results = await Promise.all([1, 2, 3].map(() => inTransaction(dataSource, (m) => recovery.disableFailing(m, 50))));
    expect(results.flat().filter((d) => d.reference === endpoint.reference)).toHaveLength(1);
    expect(await dataSource.query(`SELECT 1 FROM events WHERE developer_id = $1 AND name = 'webhook_endpoint.disabled'`, [ctx.developerId])).toHaveLength(1);
  });

  it("an owner's change to the URL writes the settings only: it never re-enables the endpoint or resets its run", async () => {
    const ctx = await newTenant();
    const { endpoint } = await webhooks.create(ctx, { url, events: ['customer.created'], webhookVersion: 'v1' });
    await dataSource.query(`UPDATE webhook_endpoints SET consecutive_failed_deliveries = 4, failing_since = $2, status = 'disabled', disabled_at = $2, disabled_reason = 'consecutive_failures' WHERE id = $1`, [
      endpoint.id,
      clock.now(),
    ]);
    const updated = toWebhookResponse(await webhooks.update(ctx, endpoint.reference, { url: `${url}?fixed`, rotateSecret: true }));
    expect(updated).toMatchObject({ url: `${url}?fixed`, status: 'disabled', secret: expect.stringMatching(/^whsec_/), health: { consecutive_failed_deliveries: 4 } });
  });

  it('replays every failed delivery since T once, in batches (test deliveries aside); refuses T in the future or before the window', async () => {
    const ctx = await newTenant();
    const { endpoint } = await webhooks.create(ctx, { url, events: ['customer.created'], webhookVersion: 'v1' });
    const since = new Date(clock.now().getTime() - 3 * DAY_MS);
    const before = await arrangeFailedDeliveries(ctx, endpoint.id, 3, new Date(since.getTime() - DAY_MS));
    const count = 2 * REPLAY_BATCH + 7;
    const failed = await arrangeFailedDeliveries(ctx, endpoint.id, count, since);
    const delivered = (await deliveryOf(endpoint.id, await emitCustomer(ctx))).id;
    await dataSource.query(`UPDATE webhook_deliveries SET status = 'delivered' WHERE id = $1`, [delivered]);
    // A failed test delivery is not replayed: a test is sent once, to whoever asked for it.
    expect((await webhooks.sendTest(ctx, endpoint.reference)).success).toBe(false);

    const result = await recovery.replay(ctx, endpoint.reference, since);
    expect(result).toEqual({ reference: endpoint.reference, since, queued: count });
    const statuses = (await dataSource.query(`SELECT status, count(*)::int AS n, count(replay_requested_at)::int AS marked FROM webhook_deliveries WHERE endpoint_id = $1 GROUP BY status ORDER BY status`, [endpoint.id])) as unknown[];
    expect(statuses).toEqual([
      { status: 'delivered', n: 1, marked: 0 },
      { status: 'failed', n: 4, marked: 0 },
      { status: 'pending', n: count, marked: count },
    ]);
    expect(await dueForReplay(failed)).toBe(count);
    expect(await dueForReplay(before)).toBe(0);
    // Queued already: a second replay finds nothing failed.
    expect((await recovery.replay(ctx, endpoint.reference, since)).queued).toBe(0);

    await expect(recovery.replay(ctx, endpoint.reference, new Date(clock.now().getTime() + 1000))).rejects.toMatchObject({ code: 'validation_error', fieldErrors: { since: [expect.stringMatching(/past/)] } });
    await expect(recovery.replay(ctx, endpoint.reference, new Date(clock.now().getTime() - 31 * DAY_MS))).rejects.toMatchObject({ code: 'validation_error', fieldErrors: { since: [expect.stringMatching(/30 days/)] } });
    await expect(recovery.replay(await newTenant(), endpoint.reference, since)).rejects.toMatchObject({ code: 'webhook_not_found' });
  });

  it('two replays at once queue each failed delivery once', async () => {
    const ctx = await newTenant();
    const { endpoint } = await webhooks.create(ctx, { url, events: ['customer.created'], webhookVersion: 'v1' });
    const since = new Date(clock.now().getTime() - DAY_MS);
    const failed = await arrangeFailedDeliveries(ctx, endpoint.id, REPLAY_BATCH + 250, since);
    const [a, b] = await Promise.all([recovery.replay(ctx, endpoint.reference, since), recovery.replay(ctx, endpoint.reference, since)]);
    expect(a.queued + b.queued).toBe(failed.length);
    expect(await dueForReplay(failed)).toBe(failed.length);
  });

  it('a replayed delivery gets one attempt, logged `replay`: failed again it joins the run, delivered it ends it', async () => {
    const ctx = await newTenant();
    const { endpoint } = await webhooks.create(ctx, { url, events: ['customer.created'], webhookVersion: 'v1' });
    const eventIds = [await emitCustomer(ctx), await emitCustomer(ctx)];
    const deliveries = await Promise.all(eventIds.map((id) => deliveryOf(endpoint.id, id)));
    for (const d of deliveries) await runSchedule(d.id);
    expect((await shown(ctx, endpoint.reference)).health.consecutive_failed_deliveries).toBe(2);

    const since = new Date(clock.now().getTime() - DAY_MS);
    clock.advance(1000);
    expect((await recovery.replay(ctx, endpoint.reference, since)).queued).toBe(2);
    await dispatcher.runScheduledAttempt(deliveries[0].id); // still 500
    expect(await deliveryOf(endpoint.id, eventIds[0])).toEqual({ id: deliveries[0].id, status: 'failed', replayRequestedAt: null });
    expect((await shown(ctx, endpoint.reference)).health.consecutive_failed_deliveries).toBe(3);

    receiver.status = 200;
    await dispatcher.runScheduledAttempt(deliveries[1].id);
    expect(await deliveryOf(endpoint.id, eventIds[1])).toMatchObject({ status: 'delivered', replayRequestedAt: null });
    expect(receiver.requests.slice(-2)).toEqual(eventIds); // the same event ids, in that order
    const logs = (await dataSource.query(`SELECT trigger, success FROM webhook_delivery_logs WHERE delivery_id = ANY ($1::uuid[]) AND trigger = 'replay' ORDER BY created_at, attempt`, [
      deliveries.map((d) => d.id),
    ])) as unknown[];
    expect(logs).toEqual([
      { trigger: 'replay', success: false },
      { trigger: 'replay', success: true },
    ]);
    expect((await shown(ctx, endpoint.reference)).health).toMatchObject({ consecutive_failed_deliveries: 0, failing_since: null });
  });
  it('a batch locks the endpoint rows it writes in id order, whatever order its attempts came in: two batches never wait for each other in a cycle', async () => {
    const ctx = await newTenant();
    const endpoints = [];
    for (let i = 0; i < 2; i++) endpoints.push((await webhooks.create(ctx, { url, events: ['customer.created'], webhookVersion: 'v1' })).endpoint);
    const [first, second] = endpoints.sort((a, b) => (a.id < b.id ? -1 : 1));
    const failure = (endpointId: string): AttemptHealth => ({
      endpointId,
      deliveryId: randomUUID(),
      success: false,
      error: 'http_status',
      statusCode: 500,
      at: clock.now(),
      endedDeliveryFailed: false,
    });
    const lockEndpoint = `SELECT id FROM webhook_endpoints WHERE id = $1 FOR NO KEY UPDATE`;
    // An update writes a row's new version after the others: now neither the attempts' order (below) nor the table's is id order.
    await dataSource.query(`UPDATE webhook_endpoints SET updated_at = updated_at WHERE id = $1`, [first.id]);

    // Two transactions of their own (inTransaction would retry the one PostgreSQL aborts in a deadlock).
    const [holder, recorder] = [dataSource.createQueryRunner(), dataSource.createQueryRunner()];
    try {
      for (const runner of [holder, recorder]) {
        await runner.connect();
        await runner.startTransaction();
      }
      // The holder takes the first endpoint's row.
      await holder.query(lockEndpoint, [first.id]);
      // The batch's attempts name the second endpoint first; it must wait for the first without holding the second.
      const batch = recordAttempts(recorder.manager, { logs: [], deliveries: [], health: [failure(second.id), failure(first.id)] });
      for (let waited = 0; !(await waitingForLock(dataSource)); waited++) {
        if (waited > 500) throw new Error('the batch never waited for the held endpoint row');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // Had the batch locked the second row first, this would wait for it while it waits for the holder: a deadlock, and an error here or there.
      await holder.query(lockEndpoint, [second.id]);
      await holder.commitTransaction();
      await batch;
      await recorder.commitTransaction();
    } finally {
      for (const runner of [holder, recorder]) {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        await runner.release();
      }
    }
    for (const endpoint of [first, second]) {
      expect((await shown(ctx, endpoint.reference)).health).toMatchObject({ last_failure_error: 'http_status', last_failure_status_code: 500 });
    }
  });
});

/** Whether a backend of this database waits for a row lock. */
async function waitingForLock(dataSource: DataSource): Promise<boolean> {
  const rows = (await dataSource.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)) as unknown[];
  return rows.length > 0;
}
