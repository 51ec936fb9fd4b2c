import type { INestApplicationContext } from '@nestjs/common';
import type { CustomerEventData, PaymentEventData } from '@gateway/contracts';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { type DeveloperContext, inTransaction } from '@gateway/platform';
import { createDomainTestContext } from '@gateway/platform/testing';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { DELIVERIES_DUE_CHANNEL } from './deliveries-due';
import { EventsModule } from './events.module';
import { EventsService } from './events.service';

const customer = (reference: string): CustomerEventData => ({ reference, email: 'a@example.com', name: null, phone: null, metadata: {}, created_at: '2025-03-14T09:20:00.000Z' });
const payment = (reference: string, amount: number): PaymentEventData => ({
  reference,
  status: 'success',
  amount,
  currency: 'NGN',
  net_amount: amount,
  fees: { platform: 0, provider: 0 },
  amount_refunded: 0,
  email: 'a@example.com',
  customer_reference: 'CUS_1',
  authorization_url: null,
  callback_url: null,
  metadata: {},
  splits: [],
  authorization: null,
  gateway_response: 'Approved',
  channel: 'card',
  charge_at: null,
  paid_at: '2025-03-14T09:26:52.000Z',
  created_at: '2025-03-14T09:25:10.000Z',
});

describe('EventsService (outbox)', () => {
  let app: INestApplicationContext;
  let events: EventsService;
  let dataSource: DataSource;
  let test: DeveloperContext;

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([DevelopersModule, EventsModule]));
    events = app.get(EventsService);
    dataSource = app.get(DataSource);
    const developer = await app.get(DevelopersService).create({ email: 'events-int@example.com', name: 'E' });
    test = { developerId: developer.id, mode: 'test' };
  });
  afterAll(() => app.close());

  it('records the event with the committed change and returns a stable evt_ id', async () => {
    const id = await inTransaction(dataSource, (m) => events.emit(m, test, 'customer.created', customer('CUS_1')));
    expect(id).toMatch(/^evt_[0-9a-f]{24}$/);
    const stored = await events.find(test, id);
    expect(stored).toMatchObject({ id, name: 'customer.created', mode: 'test', data: customer('CUS_1') });
    expect(await events.find({ ...test, mode: 'live' }, id)).toBeNull();
  });

  it('leaves no event, delivery or wake-up of the dispatchers when the transaction rolls back', async () => {
    // A subscribed endpoint, so the event would fan out to a delivery and wake the dispatchers.
    await dataSource.query(
      `INSERT INTO webhook_endpoints (reference, developer_id, mode, url, events, webhook_version, secret_ciphertext, created_at, updated_at)
       VALUES ('whk_rollback', $1, 'test', 'http://127.0.0.1:9/hook', '{payment.success}', 'v1', 'sealed', now(), now())`,
      [test.developerId],
    );
    const dispatcher = new Client({ connectionString: (dataSource.options as PostgresConnectionOptions).url });
    const wakeUps: string[] = [];
    dispatcher.on('notification', (message) => wakeUps.push(message.channel));
    await dispatcher.connect();
    try {
      await dispatcher.query(`LISTEN ${DELIVERIES_DUE_CHANNEL}`);
      const deliveries = async () => (await dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries`))[0].n as number;
      const before = await deliveries();
      let id = '';
      await expect(
        inTransaction(dataSource, async (m) => {
          id = await events.emit(m, test, 'payment.success', payment('PAY_1', 100.5));
          throw new Error('the change failed after the event was written');
        }),
      ).rejects.toThrow('the change failed');
      expect(id).toMatch(/^evt_/);
      expect(await events.find(test, id)).toBeNull();
      expect(await deliveries()).toBe(before);
      // The same emission committed does fan out: the fixture is really subscribed.
      await inTransaction(dataSource, (m) => events.emit(m, test, 'payment.success', payment('PAY_2', 1)));
      expect(await deliveries()).toBe(before + 1);
      // Notifications arrive in commit order: once the committed one is here, the rolled-back one would have been too.
      while (wakeUps.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await dispatcher.query('SELECT 1');
      expect(wakeUps).toEqual([DELIVERIES_DUE_CHANNEL]);
    } finally {
      await dispatcher.end();
    }
  });

  it('wakes the dispatchers only once the change has committed, and after the last of many concurrent commits', async () => {
    // The endpoint of the previous test is subscribed to payment.success: every emission below makes a delivery.
    const dispatcher = new Client({ connectionString: (dataSource.options as PostgresConnectionOptions).url });
    const seenAtWake: number[] = [];
    const deliveries = async (db: Pick<Client, 'query'>) => (await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries`)).rows[0].n as number;
    const inFlight = new Set<Promise<unknown>>();
    await dispatcher.connect();
    try {
      // As the dispatcher does: on a wake, claim what is due. The deliveries of every commit before it must be visible.
      dispatcher.on('notification', () => {
        const claim = deliveries(dispatcher).then((n) => seenAtWake.push(n));
        inFlight.add(claim);
        claim.then(
          () => inFlight.delete(claim),
          () => inFlight.delete(claim),
        );
      });
      await dispatcher.query(`LISTEN ${DELIVERIES_DUE_CHANNEL}`);
      const before = await deliveries(dispatcher);
      // Held open after the event is written: no wake may come before the commit.
      let commit: () => void = () => undefined;
      const open = inTransaction(dataSource, async (m) => {
        await events.emit(m, test, 'payment.success', payment('PAY_3', 1));
        await new Promise<void>((resolve) => (commit = resolve));
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seenAtWake).toEqual([]);
      commit();
      await open;
      // Twenty commits at once: their wakes are coalesced, and one comes after the last of them.
      await Promise.all(Array.from({ length: 20 }, (_, i) => inTransaction(dataSource, (m) => events.emit(m, test, 'payment.success', payment(`PAY_C${i}`, 1)))));
      const deadline = Date.now() + 10_000;
      while (!seenAtWake.includes(before + 21) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(seenAtWake[0]).toBeGreaterThanOrEqual(before + 1);
      expect(seenAtWake).toContain(before + 21);
      expect(seenAtWake.length).toBeLessThanOrEqual(21);
    } finally {
      // A coalesced wake can still arrive after the last expectation: its query must finish before
      // the connection closes, or it fails with "Connection terminated" in the next test.
      dispatcher.removeAllListeners('notification');
      await Promise.allSettled(inFlight);
      await dispatcher.end();
    }
  });

  it('refuses a name outside the catalog', async () => {
    await expect(inTransaction(dataSource, (m) => events.emit(m, test, 'payment.exploded' as never, {} as never))).rejects.toMatchObject({ code: 'validation_error' });
  });
});
