import type { INestApplicationContext } from '@nestjs/common';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { Amount, dataSourceOptions, type DeveloperContext, inTransaction } from '@gateway/platform';
import { createDomainTestContext } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import { DataSource, type QueryRunner } from 'typeorm';
import { LedgerModule } from './ledger.module';
import { LedgerService } from './ledger.service';
import type { Posting, PostingLine } from './ledger.types';
import { paymentSuccessLines, refundLines } from './posting-lines';
import { assertLedgerInvariants } from './testing';

const a = (value: string) => Amount.parse(value);
const CONCURRENT_CONNECTIONS = 20;

/** Concurrency on a real PostgreSQL: a pool of its own, wide enough for 20 transactions at once. */
describe('LedgerService under concurrency', () => {
  let app: INestApplicationContext;
  let ledger: LedgerService;
  let developers: DevelopersService;
  let db: DataSource;

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([DevelopersModule, LedgerModule]));
    ledger = app.get(LedgerService);
    developers = app.get(DevelopersService);
    db = await new DataSource(dataSourceOptions(process.env.TEST_DATABASE_URL as string, { size: CONCURRENT_CONNECTIONS })).initialize();
  });
  afterAll(async () => {
    await assertLedgerInvariants(db);
    await db.destroy();
    await app.close();
  });

  async function newMerchant(): Promise<DeveloperContext> {
    const developer = await developers.create({ email: `ledger-conc-${randomUUID()}@example.com`, name: 'L' });
    return { developerId: developer.id, mode: 'test' };
  }
  const posting = (lines: PostingLine[], sourceType = 'payment', kind = 'success'): Posting => ({
    currency: 'NGN',
    sourceType,
    sourceId: randomUUID(),
    kind,
    reference: `REF_${randomUUID().slice(0, 8)}`,
    lines,
  });
  const payment = (amount: string, fee = '0') => posting(paymentSuccessLines({ amount: a(amount), platformFee: a(fee), providerFee: a('0') }));
  const post = (ctx: DeveloperContext, p: Posting) => inTransaction(db, (m) => ledger.post(m, ctx, p));
  const slotsOf = (ctx: DeveloperContext): Promise<Array<{ slot: number; available: string }>> =>
    db.query('SELECT s.slot, s.available FROM wallet_balance_slots s JOIN wallets w ON w.id = s.wallet_id WHERE w.developer_id = $1 ORDER BY s.slot', [ctx.developerId]);

  it('50 concurrent payments of 100.01 (fee 10.00) on one new wallet all land: available is exactly 4,500.50', async () => {
    const ctx = await newMerchant();
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => post(ctx, payment('100.01', '10'))));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect((await ledger.balance(ctx, 'NGN')).available.toString()).toBe('4500.50');
    // Spread over several slots, not serialised on one row.
    expect((await slotsOf(ctx)).filter((s) => s.available !== '0.00').length).toBeGreaterThan(1);
    // Each credit appended to the chain of the slot it held: every chain is still intact.
    expect(await ledger.verifyChains(ctx, 'NGN')).toMatchObject({ verified: true, entriesChecked: 50 * 4 });
  });

  it('16 concurrent refunds of 100.00 against 1,000.00 spread over slots: exactly 10 succeed, none below zero', async () => {
    const ctx = await newMerchant();
    await Promise.all(Array.from({ length: 10 }, () => post(ctx, payment('100'))));
    const results = await Promise.allSettled(Array.from({ length: 16 }, () => post(ctx, posting(refundLines(a('100')), 'refund', 'refund'))));
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.map((r) => (r.reason as { code?: string }).code)).toEqual(Array(6).fill('insufficient_wallet_balance'));
    expect((await ledger.balance(ctx, 'NGN')).available.toString()).toBe('0.00');
    expect((await slotsOf(ctx)).every((s) => !s.available.startsWith('-'))).toBe(true);
  });

  it('payments and refunds racing on one wallet never deadlock and leave available = credits − successful refunds', async () => {
    const ctx = await newMerchant();
    await post(ctx, payment('500'));
    const credits = Array.from({ length: 30 }, () => post(ctx, payment('20')));
    const refunds = Array.from({ length: 16 }, () => post(ctx, posting(refundLines(a('60')), 'refund', 'refund')).then(() => true, (e: { code?: string }) => {
      if (e.code !== 'insufficient_wallet_balance') throw e;
      return false;
    }));
    await Promise.all(credits);
    const refunded = (await Promise.all(refunds)).filter(Boolean).length;
    expect(refunded).toBeGreaterThanOrEqual(8);
    expect((await ledger.balance(ctx, 'NGN')).available.toString()).toBe(a('1100').minus(a('60').multiply(BigInt(refunded), 'down')).toString());
    expect(await ledger.verifyChains(ctx, 'NGN')).toMatchObject({ verified: true, entriesChecked: 31 * 2 + refunded * 2 });
  });

  it('credits never wait for each other on a debit-free wallet: the 16th lands while 15 others are uncommitted', async () => {
    const ctx = await newMerchant();
    await post(ctx, payment('1'));
    const open: QueryRunner[] = [];
    try {
      for (let i = 0; i < 15; i++) {
        const runner = db.createQueryRunner();
        open.push(runner);
        await runner.startTransaction();
        await ledger.post(runner.manager, ctx, payment('2'));
      }
      // Would fail with lock_not_available if it had to wait for any of the 15.
      await inTransaction(db, async (m) => {
        await m.query(`SET LOCAL lock_timeout = '500ms'`);
        await ledger.post(m, ctx, payment('3'));
      });
      for (const runner of open) await runner.commitTransaction();
    } finally {
      for (const runner of open) {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        await runner.release();
      }
    }
    expect((await ledger.balance(ctx, 'NGN')).available.toString()).toBe('34.00');
    expect(await ledger.verifyChains(ctx, 'NGN')).toMatchObject({ verified: true, entriesChecked: 17 * 2 });
  });
});
