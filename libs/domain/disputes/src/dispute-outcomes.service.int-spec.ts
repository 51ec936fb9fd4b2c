import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { LedgerService } from '@gateway/domain/ledger';
import { assertLedgerInvariants } from '@gateway/domain/ledger/testing';
import { confirmedPayment } from '@gateway/domain/payments/testing';
import type { ProviderDispute } from '@gateway/provider';
import { Amount, ConfigModule, type DeveloperContext, type ManualClock } from '@gateway/platform';
import { createDomainTestContext, genericPlan, statementsRun, testConfig } from '@gateway/platform/testing';
import { randomInt, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { DisputeOutcomesService } from './dispute-outcomes.service';
import { DisputesModule } from './disputes.module';
import { DisputesService } from './disputes.service';

const DAY_MS = 24 * 60 * 60 * 1_000;

/**
 * The provider's chargeback callbacks on a real PostgreSQL, delivered again and again and all at
 * once: a dispute is created once, holds once and is decided once. No platform fee, so the wallet
 * holds exactly what was paid.
 */
describe('DisputeOutcomesService (exactly once)', () => {
  let app: INestApplicationContext;
  let clock: ManualClock;
  let dataSource: DataSource;
  let outcomes: DisputeOutcomesService;

  beforeAll(async () => {
    ({ app, clock } = await createDomainTestContext([ConfigModule.forRoot(testConfig({ PLATFORM_FEES: '' })), DevelopersModule, DisputesModule]));
    dataSource = app.get<DataSource>(getDataSourceToken());
    outcomes = app.get(DisputeOutcomesService);
  });
  afterAll(async () => {
    await assertLedgerInvariants(dataSource);
    await app.close();
  });

  async function paid(amount: number): Promise<{ ctx: DeveloperContext; reference: string }> {
    const developer = await app.get(DevelopersService).create({ email: `disputes-${randomUUID()}@example.com`, name: 'Disputes' });
    const ctx: DeveloperContext = { developerId: developer.id, mode: 'test' };
    const view = await confirmedPayment(app, ctx, { amount, email: `payer-${randomUUID().slice(0, 8)}@example.com` });
    return { ctx, reference: view.payment.reference };
  }
  const notice = (reference: string, amount: string, status: ProviderDispute['status'] = 'open', providerId = String(randomInt(1, 2 ** 31))): ProviderDispute => ({
    providerId,
    transactionReference: reference,
    status,
    amount: Amount.parse(amount),
    currency: 'NGN',
    reason: 'Customer says not received',
    dueAt: new Date(clock.now().getTime() + 2 * DAY_MS),
    resolvedAt: null,
  });
  const wallet = async (ctx: DeveloperContext) => {
    const b = await app.get(LedgerService, { strict: false }).balance(ctx, 'NGN');
    return `${b.available.toString()} available, ${b.reserved.toString()} reserved`;
  };
  const count = async (sql: string, params: unknown[]) => Number((await dataSource.query(sql, params))[0].n);
  const eventsOf = (name: string, ctx: DeveloperContext) => count(`SELECT count(*)::int AS n FROM events WHERE name = $1 AND developer_id = $2`, [name, ctx.developerId]);
  const postingsOf = (kind: string, ctx: DeveloperContext) =>
    count(`SELECT count(*)::int AS n FROM ledger_postings WHERE source_type = 'dispute' AND kind = $1 AND developer_id = $2`, [kind, ctx.developerId]);

  it('five concurrent charge.dispute.create callbacks create one dispute of 4,000.50, hold it once and emit dispute.created once', async () => {
    const { ctx, reference } = await paid(10_000);
    const created = notice(reference, '4000.50');
    const results = await Promise.all(Array.from({ length: 5 }, () => outcomes.onProviderDispute('test', created)));
    expect(new Set(results.map((d) => d?.reference)).size).toBe(1);
    expect(results[0]).toMatchObject({ status: 'open', paymentReference: reference, amount: Amount.parse('4000.50'), heldAmount: Amount.parse('4000.50') });
    expect(await count(`SELECT count(*)::int AS n FROM disputes WHERE developer_id = $1`, [ctx.developerId])).toBe(1);
    expect(await postingsOf('hold', ctx)).toBe(1);
    expect(await eventsOf('dispute.created', ctx)).toBe(1);
    expect(await wallet(ctx)).toBe('5999.50 available, 4000.50 reserved');
  });

  it('five concurrent charge.dispute.resolve (lost) callbacks debit the hold once; a later "won" changes nothing', async () => {
    const { ctx, reference } = await paid(10_000);
    const opened = notice(reference, '10000');
    await outcomes.onProviderDispute('test', opened);
    const lost = { ...opened, status: 'lost' as const, resolvedAt: clock.now() };
    await Promise.all(Array.from({ length: 5 }, () => outcomes.onProviderDispute('test', lost)));
    expect(await postingsOf('loss', ctx)).toBe(1);
    expect(await eventsOf('dispute.lost', ctx)).toBe(1);
    expect(await wallet(ctx)).toBe('0.00 available, 0.00 reserved');
    const after = await outcomes.onProviderDispute('test', { ...opened, status: 'won' });
    expect(after?.status).toBe('lost');
    expect([await postingsOf('release', ctx), await eventsOf('dispute.won', ctx)]).toEqual([0, 0]);
  });

  it('a decision racing the deadline scan closes the dispute once: won and expiry, only one goes through', async () => {
    const { ctx, reference } = await paid(2_000);
    const opened = notice(reference, '1500.25');
    const dispute = await outcomes.onProviderDispute('test', opened);
    clock.advance(3 * DAY_MS);
    try {
      await Promise.all([outcomes.onProviderDispute('test', { ...opened, status: 'won' }), app.get(DisputesService).expireOverdue(100, ctx)]);
    } finally {
      clock.advance(-3 * DAY_MS);
    }
    const decided = await app.get(DisputesService).get(ctx, dispute?.reference as string);
    const won = decided.status === 'won';
    expect([await eventsOf('dispute.won', ctx), await eventsOf('dispute.lost', ctx)]).toEqual(won ? [1, 0] : [0, 1]);
    expect([await postingsOf('release', ctx), await postingsOf('loss', ctx)]).toEqual(won ? [1, 0] : [0, 1]);
    expect(await wallet(ctx)).toBe(won ? '2000.00 available, 0.00 reserved' : '499.75 available, 0.00 reserved');
  });

  it('acknowledges a callback for a payment that is not ours, and writes nothing', async () => {
    const before = await count(`SELECT count(*)::int AS n FROM disputes`, []);
    await expect(outcomes.onProviderDispute('test', notice('PAY-not-ours-0000000000', '100'))).resolves.toBeNull();
    expect(await count(`SELECT count(*)::int AS n FROM disputes`, [])).toBe(before);
  });

  it("the deadline scan's statement reads the open disputes' due index, even under a generic plan", async () => {
    const [[sql, params] = []] = await statementsRun(() => app.get(DisputesService).expireOverdue(100), (text) => text.includes('FROM "disputes"'));
    expect(sql).toBeDefined();
    expect(await genericPlan(dataSource, sql ?? '', params ?? [])).toContain('disputes_open_due');
  });
});
