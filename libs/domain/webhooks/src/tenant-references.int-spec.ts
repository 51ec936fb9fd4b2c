import type { INestApplicationContext } from '@nestjs/common';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { ConfigModule, type DeveloperContext } from '@gateway/platform';
import { createDomainTestContext, refusalOf, testConfig } from '@gateway/platform/testing';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EventsModule } from './events.module';
import { WebhooksModule } from './webhooks.module';
import { type NewWebhook, WebhooksService } from './webhooks.service';

/**
 * A delivery and an attempt log reference their endpoint together with their merchant and mode
 * (migration ReferenceParentsWithinTheTenant): the database refuses one that points at another
 * merchant's or another mode's endpoint, whatever the code above it does. Each try runs inside a
 * transaction that is rolled back, so the database is left as it was.
 */
describe('webhook rows reference their endpoint within their merchant and mode', () => {
  let app: INestApplicationContext;
  let dataSource: DataSource;
  let ctx: DeveloperContext;
  let stranger: DeveloperContext;

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([ConfigModule.forRoot(testConfig({ ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}` })), DevelopersModule, EventsModule, WebhooksModule]));
    dataSource = app.get(DataSource);
    const developers = app.get(DevelopersService);
    const merchant = async () => ({ developerId: (await developers.create({ email: `tenant-refs-${randomBytes(4).toString('hex')}@example.com`, name: 'T' })).id, mode: 'test' as const });
    ctx = await merchant();
    stranger = await merchant();
  });
  afterAll(() => app?.close());

  it("refuses a delivery or an attempt log on another merchant's or another mode's endpoint", async () => {
    // A test send to an address the guard refuses: a real delivery and attempt log, no traffic.
    const webhooks = app.get(WebhooksService);
    const endpointInput: NewWebhook = { url: 'http://127.0.0.1:9/hooks', events: ['customer.created'], webhookVersion: 'v1' };
    const { endpoint } = await webhooks.create(ctx, endpointInput);
    const { endpoint: second } = await webhooks.create(ctx, endpointInput);
    const log = await webhooks.sendTest(ctx, endpoint.reference);
    const [sent] = (await dataSource.query(`SELECT delivery_id, event_id FROM webhook_delivery_logs WHERE reference = $1`, [log.reference])) as Array<{ delivery_id: string; event_id: string }>;
    const [{ id: secondId }] = (await dataSource.query(`SELECT id FROM webhook_endpoints WHERE reference = $1`, [second.reference])) as Array<{ id: string }>;

    // The same event delivered to the second endpoint, as this merchant, the stranger, or the other mode.
    const delivery = (developerId: string, mode: string) => [
      `INSERT INTO webhook_deliveries (developer_id, mode, endpoint_id, event_id, status, attempts, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, 'pending', 0, now(), now())`,
      [developerId, mode, secondId, sent.event_id],
    ] as const;
    // Another attempt of the sent delivery, logged as this merchant, the stranger, or the other mode.
    const attempt = (developerId: string, mode: string) => [
      `INSERT INTO webhook_delivery_logs (reference, delivery_id, developer_id, mode, endpoint_id, event_id, event_name, attempt, trigger, success, status_code,
         latency_ms, error, response_body, created_at)
       SELECT 'whl_' || $3, delivery_id, $1, $2, endpoint_id, event_id, event_name, 99, trigger, success, status_code, latency_ms, error, response_body, created_at
         FROM webhook_delivery_logs WHERE reference = $4`,
      [developerId, mode, randomBytes(12).toString('hex'), log.reference],
    ] as const;
    const deliveryKey = { code: '23503', constraint: 'webhook_deliveries_endpoint_tenant_fkey' };
    const logKey = { code: '23503', constraint: 'webhook_delivery_logs_endpoint_tenant_fkey' };

    const runner = dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      expect(await refusalOf(runner, ...delivery(stranger.developerId, 'test'))).toEqual(deliveryKey);
      expect(await refusalOf(runner, ...delivery(ctx.developerId, 'live'))).toEqual(deliveryKey);
      expect(await refusalOf(runner, ...delivery(ctx.developerId, 'test'))).toBeNull();
      expect(await refusalOf(runner, ...attempt(stranger.developerId, 'test'))).toEqual(logKey);
      expect(await refusalOf(runner, ...attempt(ctx.developerId, 'live'))).toEqual(logKey);
      expect(await refusalOf(runner, ...attempt(ctx.developerId, 'test'))).toBeNull();
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
