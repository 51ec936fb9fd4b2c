import type { INestApplicationContext } from '@nestjs/common';
import type { CustomerEventData } from '@gateway/contracts';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { ConfigModule, type DeveloperContext, inTransaction, type ManualClock } from '@gateway/platform';
import { createDomainTestContext, createTestDatabase, dropTestDatabase, testConfig } from '@gateway/platform/testing';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EventsModule } from './events.module';
import { EventsService } from './events.service';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhooksModule } from './webhooks.module';
import { WebhooksService } from './webhooks.service';

/** Long enough that no lease taken here runs out during the run unless a test makes it. */
const LEASE_MS = 600_000;

describe('WebhookDeliveriesRepository.claimNextDue (how schedulers take due deliveries)', () => {
  let app: INestApplicationContext;
  let clock: ManualClock;
  let deliveries: WebhookDeliveriesRepository;
  let dataSource: DataSource;
  let ctx: DeveloperContext;
  let endpointId: string;

  let databaseUrl: string;

  beforeAll(async () => {
    // A database of its own: a claim takes any tenant's due deliveries, and the project's other
    // files leave deliveries due in the shared one.
    databaseUrl = await createTestDatabase('webhook_claims');
    const config = ConfigModule.forRoot(testConfig({ DATABASE_URL: databaseUrl, ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}` }));
    ({ app, clock } = await createDomainTestContext([config, DevelopersModule, EventsModule, WebhooksModule], undefined, databaseUrl));
    deliveries = app.get(WebhookDeliveriesRepository);
    dataSource = app.get(DataSource);
    const developer = await app.get(DevelopersService).create({ email: `claims-${randomBytes(4).toString('hex')}@example.com`, name: 'C' });
    ctx = { developerId: developer.id, mode: 'test' };
    ({
      endpoint: { id: endpointId },
    } = await app.get(WebhooksService).create(ctx, { url: 'http://127.0.0.1:9/hooks', events: ['customer.created'], webhookVersion: 'v1' }));
  }, 60_000); // a migrated database of its own: slow on a busy machine
  afterAll(async () => {
    await app?.close();
    if (databaseUrl) await dropTestDatabase(databaseUrl);
  }, 60_000);

  /** `count` committed customer.created events: the ids of their pending deliveries. */
  async function emit(count: number): Promise<string[]> {
    const customer = (i: number): CustomerEventData => ({ reference: `CUS_claim${i}`, email: 'a@example.com', name: null, phone: null, metadata: {}, created_at: clock.now().toISOString() });
    const eventIds = await inTransaction(dataSource, async (m) => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) ids.push(await app.get(EventsService).emit(m, ctx, 'customer.created', customer(i)));
      return ids;
    });
    const rows = (await dataSource.query(`SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id = ANY ($2::text[])`, [endpointId, eventIds])) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }
  const claim = async (limit: number) => (await deliveries.claimNextDue(limit, LEASE_MS, clock.now())).map((c) => c.delivery.id);

  it('schedulers claiming at once share the due deliveries: each is leased by one of them, none waits, none is left out', async () => {
    const due = await emit(10);
    const [first, second] = await Promise.all([claim(6), claim(6)]);
    expect(first.filter((id) => second.includes(id))).toEqual([]);
    expect([...first, ...second].sort()).toEqual([...due].sort());
    // Every one is leased now: nothing more to claim until a lease runs out.
    expect(await claim(64)).toEqual([]);
  });

  it('claims a delivery again once its lease has run out (its scheduler died), and a retry only once it is due', async () => {
    const [abandoned, retried] = await emit(2);
    expect((await claim(64)).sort()).toEqual([abandoned, retried].sort());
    // One lease runs out; the other attempt failed and was recorded with a retry in a minute.
    await dataSource.query(`UPDATE webhook_deliveries SET lease_until = clock_timestamp() - interval '1 second' WHERE id = $1`, [abandoned]);
    await dataSource.query(`UPDATE webhook_deliveries SET lease_until = NULL, attempts = 1, next_attempt_at = $2 WHERE id = $1`, [retried, new Date(clock.now().getTime() + 60_000)]);
    expect(await claim(64)).toEqual([abandoned]);
    clock.advance(60_000);
    expect(await claim(64)).toEqual([retried]);
  });

  it('never claims a delivery that is not pending', async () => {
    const [delivered] = await emit(1);
    await dataSource.query(`UPDATE webhook_deliveries SET status = 'delivered', completed_at = now() WHERE id = $1`, [delivered]);
    expect(await claim(64)).toEqual([]);
  });
});
