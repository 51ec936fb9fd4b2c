import type { INestApplicationContext } from '@nestjs/common';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { ConfigModule, type DeveloperContext } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EventsModule } from './events.module';
import { WebhooksModule } from './webhooks.module';
import { WebhooksService } from './webhooks.service';

/**
 * The migration that turned delivery-log errors into classes: what it makes of the texts the
 * gateway used to write, and the CHECK that keeps raw text out afterwards. Runs inside a
 * transaction that is rolled back, so the database is left as the migrations made it.
 */
describe('delivery logs keep error classes only (migration ClassifyWebhookAttemptErrors)', () => {
  let app: INestApplicationContext;
  let dataSource: DataSource;
  let ctx: DeveloperContext;

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([ConfigModule.forRoot(testConfig({ ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}` })), DevelopersModule, EventsModule, WebhooksModule]));
    dataSource = app.get(DataSource);
    const developer = await app.get(DevelopersService).create({ email: `classes-${randomBytes(4).toString('hex')}@example.com`, name: 'C' });
    ctx = { developerId: developer.id, mode: 'test' };
  });
  afterAll(() => app?.close());

  it('maps the old texts to classes, clears stored bodies, and refuses raw text afterwards', async () => {
    // An endpoint whose test send is refused by the guard: one real log row to hang old ones on.
    const { endpoint } = await app.get(WebhooksService).create(ctx, { url: 'http://127.0.0.1:9/hooks', events: ['customer.created'], webhookVersion: 'v1' });
    const log = await app.get(WebhooksService).sendTest(ctx, endpoint.reference);
    const [{ delivery_id: deliveryId, event_id: eventId }] = (await dataSource.query(`SELECT delivery_id, event_id FROM webhook_delivery_logs WHERE reference = $1`, [log.reference])) as Array<{
      delivery_id: string;
      event_id: string;
    }>;
    const oldTexts: Array<[string, string]> = [
      ['receiver answered 500', 'http_status'],
      ['timed out after 10000 ms', 'timeout'],
      ['connect ETIMEDOUT 10.0.0.1:443', 'timeout'],
      ['url must not point to a private, loopback, link-local or reserved address', 'url_not_allowed'],
      ['url host nowhere.example does not resolve', 'dns'],
      ['getaddrinfo EAI_AGAIN nowhere.example', 'dns'],
      ['connect ECONNREFUSED ::1:3202', 'refused'],
      ['self-signed certificate', 'tls'],
      ['write EPROTO 80E8:error:0A00010B:SSL routines:ssl3_get_record:wrong version number', 'tls'],
      ['Parse Error: Expected HTTP/', 'invalid_response'],
      ['the signing secret could not be decrypted (the operator must restore its encryption key)', 'not_sent'],
      ['event evt_123 not found', 'not_sent'],
      ['socket hang up', 'connection'],
      ['read ECONNRESET', 'connection'],
    ];

    const runner = dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      const migration = dataSource.migrations.find((m) => m.name === 'ClassifyWebhookAttemptErrors1764001300000');
      if (!migration) throw new Error('the migration is not registered');
      await migration.down(runner);
      for (const [index, [text]] of oldTexts.entries()) {
        await runner.query(
          `INSERT INTO webhook_delivery_logs (reference, delivery_id, developer_id, mode, endpoint_id, event_id, event_name, attempt, trigger, success, status_code, latency_ms, error, response_body, created_at)
           VALUES ($1, $2, $3, 'test', $4, $5, 'webhook.test', $6, 'automatic', false, NULL, 5, $7, 'what a loopback service said', now())`,
          [`whl_old_${index}_${randomBytes(4).toString('hex')}`, deliveryId, ctx.developerId, endpoint.id, eventId, 100 + index, text],
        );
      }
      await migration.up(runner);

      const rows = (await runner.query(`SELECT attempt, error, response_body FROM webhook_delivery_logs WHERE delivery_id = $1 AND attempt >= 100 ORDER BY attempt`, [deliveryId])) as Array<{
        attempt: number;
        error: string;
        response_body: string | null;
      }>;
      expect(rows.map((r) => [oldTexts[r.attempt - 100][0], r.error])).toEqual(oldTexts);
      expect(rows.every((r) => r.response_body === null)).toBe(true);
      // A row already holding a class keeps it.
      expect((await runner.query(`SELECT error FROM webhook_delivery_logs WHERE reference = $1`, [log.reference]))[0].error).toBe('refused');
      await expect(runner.query(`UPDATE webhook_delivery_logs SET error = 'connect ECONNREFUSED ::1:3202' WHERE delivery_id = $1 AND attempt = 100`, [deliveryId])).rejects.toThrow(
        /webhook_delivery_logs_error_class/,
      );
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
