import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { ConfigModule, type DeveloperContext, fromStatesOf } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { PAYMENT_TRANSITIONS } from './payment-status';
import { ABANDON_BATCH, PaymentsMaintenanceService } from './payments-maintenance.service';
import { PaymentsModule } from './payments.module';
import { UNPAID_PAYMENT } from './payments.repository';

const HOUR_MS = 3_600_000;

/** The scan that abandons unpaid payments (24 hours by default): what it takes, in what batches, and what it does not wait for. */
describe('abandoning unpaid payments', () => {
  let app: INestApplicationContext;
  let dataSource: DataSource;
  let maintenance: PaymentsMaintenanceService;
  let now: Date;

  beforeAll(async () => {
    let clock;
    ({ app, clock } = await createDomainTestContext([ConfigModule.forRoot(testConfig()), DevelopersModule, PaymentsModule]));
    now = clock.now();
    dataSource = app.get<DataSource>(getDataSourceToken());
    maintenance = app.get(PaymentsMaintenanceService);
  });
  afterAll(() => app?.close());

  async function tenant(): Promise<{ ctx: DeveloperContext; customerId: string; cardId: string }> {
    const developer = await app.get(DevelopersService).create({ email: `abandon-${randomUUID()}@example.com`, name: 'Abandon' });
    const [customer] = (await dataSource.query(`INSERT INTO customers (developer_id, mode, reference, email) VALUES ($1, 'test', $2, 'c@example.com') RETURNING id`, [
      developer.id,
      `CUS_${randomUUID()}`,
    ])) as Array<{ id: string }>;
    const [card] = (await dataSource.query(
      `INSERT INTO payment_authorizations (developer_id, mode, code, customer_id, email, provider_authorization_code, reusable, created_at)
       VALUES ($1, 'test', $2, $3, 'c@example.com', $2, true, now()) RETURNING id`,
      [developer.id, `AUTH_${randomUUID()}`, customer.id],
    )) as Array<{ id: string }>;
    return { ctx: { developerId: developer.id, mode: 'test' }, customerId: customer.id, cardId: card.id };
  }

  /**
   * `count` payments of the tenant made `hoursAgo`, one second apart (the first the oldest); their
   * references. A checkout by default; `savedCard`: a charge of the tenant's saved card, which has
   * its card from the start and no checkout; `checkoutOpen: false`: a checkout whose link the
   * provider never gave.
   */
  async function insert(
    owner: { ctx: DeveloperContext; customerId: string; cardId: string },
    status: 'pending' | 'failed',
    hoursAgo: number,
    options: { savedCard?: boolean; checkoutOpen?: boolean; count?: number } = {},
  ): Promise<string[]> {
    const rows = (await dataSource.query(
      `INSERT INTO payments (developer_id, mode, reference, status, customer_id, customer_reference, email, amount, currency, created_at, updated_at,
         provider_authorization_url, authorization_id)
       SELECT $1, 'test', 'ABN_' || md5(random()::text), $2, $3, 'CUS', 'c@example.com', 1000, 'NGN', $4::timestamptz + i * interval '1 second', $4, $5, $6
         FROM generate_series(1, $7) i ORDER BY i
       RETURNING reference`,
      [
        owner.ctx.developerId,
        status,
        owner.customerId,
        new Date(now.getTime() - hoursAgo * HOUR_MS),
        options.savedCard || options.checkoutOpen === false ? null : 'https://checkout.example.com/x',
        options.savedCard ? owner.cardId : null,
        options.count ?? 1,
      ],
    )) as Array<{ reference: string }>;
    return rows.map((row) => row.reference);
  }

  /** The payments' statuses, in the order of `references`. */
  async function statusesOf(references: string[]): Promise<string[]> {
    const rows = (await dataSource.query(`SELECT reference, status FROM payments WHERE reference = ANY ($1)`, [references])) as Array<{ reference: string; status: string }>;
    const statuses = new Map(rows.map((row) => [row.reference, row.status]));
    return references.map((reference) => statuses.get(reference) ?? 'missing');
  }

  it('takes at most the limit a call, oldest first: pending ones and declines on a checkout still open, never younger ones, a declined saved card or a checkout never opened', async () => {
    const owner = await tenant();
    const [oldest] = await insert(owner, 'pending', 30);
    const [declinedOpen] = await insert(owner, 'failed', 27);
    const [declinedSavedCard] = await insert(owner, 'failed', 27.5, { savedCard: true });
    const [declinedWithoutCheckout] = await insert(owner, 'failed', 27.2, { checkoutOpen: false });
    const [pendingSavedCard] = await insert(owner, 'pending', 26.5, { savedCard: true });
    const [pending] = await insert(owner, 'pending', 26);
    const [young] = await insert(owner, 'pending', 23);

    expect(await maintenance.abandonUnpaid(2, owner.ctx)).toBe(2);
    expect(await statusesOf([oldest, declinedOpen, pendingSavedCard])).toEqual(['abandoned', 'abandoned', 'pending']);
    expect(await maintenance.abandonUnpaid(2, owner.ctx)).toBe(2);
    expect(await maintenance.abandonUnpaid(2, owner.ctx)).toBe(0);
    expect(await statusesOf([pendingSavedCard, pending, declinedSavedCard, declinedWithoutCheckout, young])).toEqual([
      'abandoned',
      'abandoned',
      'failed',
      'failed',
      'pending',
    ]);
  });

  it(`goes through a backlog in transactions of at most ${ABANDON_BATCH} payments`, async () => {
    const owner = await tenant();
    const backlog = await insert(owner, 'pending', 72, { count: 2 * ABANDON_BATCH + 1 });
    expect(await maintenance.abandonAllUnpaid(owner.ctx)).toBe(backlog.length);
    // Rows updated by one transaction carry its id as xmin.
    const batches = (await dataSource.query(`SELECT xmin::text AS tx, count(*)::int AS payments FROM payments WHERE reference = ANY ($1) AND status = 'abandoned' GROUP BY 1 ORDER BY 2 DESC`, [
      backlog,
    ])) as Array<{ payments: number }>;
    expect(batches.map((b) => b.payments)).toEqual([ABANDON_BATCH, ABANDON_BATCH, 1]);
  });

  it('does not wait for a payment another transaction holds (a verify settling it): it takes the others, and that one on a later run', async () => {
    const owner = await tenant();
    const [held, ...others] = await insert(owner, 'pending', 30, { count: 3 });
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      await runner.query(`SELECT 1 FROM payments WHERE reference = $1 FOR UPDATE`, [held]);
      const scan = maintenance.abandonAllUnpaid(owner.ctx);
      const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 5_000).unref());
      expect(await Promise.race([scan, waited])).toBe(2);
      expect(await statusesOf(others)).toEqual(['abandoned', 'abandoned']);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    expect(await maintenance.abandonAllUnpaid(owner.ctx)).toBe(1);
    expect(await statusesOf([held])).toEqual(['abandoned']);
  });

  it("reads the abandonable payments' own index, whose predicate holds the transition's sources (the scan stays as cheap as the last day's payments)", async () => {
    expect(fromStatesOf(PAYMENT_TRANSITIONS, 'abandon')).toEqual(['pending', 'failed']);
    const plan = await dataSource.transaction(async (m) => {
      // Leave the planner no other way: if the predicate no longer matched the index's, it could not use it at all.
      await m.query(`SET LOCAL enable_seqscan = off`);
      await m.query(`SET LOCAL enable_bitmapscan = off`);
      const rows = (await m.query(`EXPLAIN SELECT id FROM payments WHERE (${UNPAID_PAYMENT}) AND created_at < $1 ORDER BY created_at LIMIT 500 FOR UPDATE SKIP LOCKED`, [
        now,
      ])) as Array<{ 'QUERY PLAN': string }>;
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('Index Scan using payments_abandonable_by_age on payments');
  });
});
