import { Amount, type DeveloperContext, inTransaction, ManualClock } from '@gateway/platform';
import { genericPlan, statementsRun } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { LedgerService } from './ledger.service';
import type { LedgerEntryFilter } from './ledger.types';
import { paymentSuccessLines, refundLines } from './posting-lines';
import { assertLedgerInvariants } from './testing';
import { type LedgerOfItsOwn, ledgerOfItsOwn } from './testing/ledger-of-its-own';

const MIGRATION = 'IndexWalletLinesOnly1764003900000';
const WALLET_INDEXES = ['ledger_entries_wallet_listing', 'ledger_entries_wallet_type_listing', 'ledger_entries_wallet_reference', 'ledger_entries_wallet_posting', 'ledger_entries_wallet_type_time'];
const REPLACED = ['ledger_entries_listing', 'ledger_entries_type_listing', 'ledger_entries_reference', 'ledger_entries_posting', 'ledger_entries_wallet_time'];

/**
 * The wallet list's indexes hold wallet lines only (migration IndexWalletLinesOnly), built over
 * lines written before it. A database of its own: the migration's online builds wait for every
 * other transaction on the table, and the index counts need a table no other file writes.
 */
describe('wallet-only indexes of the ledger (migration IndexWalletLinesOnly)', () => {
  // Each success moves the clock a minute on: the merchant's are posted at 12:01, 12:02, 12:03 and 12:04.
  const clock = new ManualClock(new Date('2026-03-01T12:00:00Z'));
  const SINCE = new Date('2026-03-01T12:02:30Z');
  let own: LedgerOfItsOwn;
  let db: DataSource;
  let ledger: LedgerService;
  const developer = () => own.developer();

  beforeAll(async () => {
    own = await ledgerOfItsOwn('ledger_wallet_indexes', clock);
    ({ db, ledger } = own);
  }, 60_000); // a migrated database of its own: slow on a busy machine
  afterAll(() => own?.close(), 30_000);

  /** A success of `amount` with a platform fee of 1 and a provider fee of 0.50: three wallet lines, three system lines. */
  async function success(ctx: DeveloperContext, amount: string, reference: string, currency: 'NGN' | 'USD' = 'NGN'): Promise<void> {
    clock.advance(60_000);
    const lines = paymentSuccessLines({ amount: Amount.parse(amount), platformFee: Amount.parse('1'), providerFee: Amount.parse('0.5') });
    await inTransaction(db, (m) => ledger.post(m, ctx, { currency, sourceType: 'payment', sourceId: randomUUID(), kind: 'success', reference, lines }));
  }

  /** What the wallet list answers for each of its filters, and a request's entries, as id lists (newest first). */
  async function everyList(ctx: DeveloperContext, requestId: string): Promise<Record<string, string[]>> {
    const ids = async (filter: Omit<LedgerEntryFilter, 'limit'>) => (await ledger.listEntries(ctx, { limit: 100, ...filter })).items.map((e) => e.id);
    return {
      all: await ids({}),
      fees: await ids({ type: 'fee' }),
      usd: await ids({ currency: 'USD' }),
      reference: await ids({ reference: 'PAY_wallet_2' }),
      refunds: await ids({ type: 'debit', currency: 'NGN' }),
      since: await ids({ from: SINCE }),
      feesSince: await ids({ type: 'fee', from: SINCE }),
      request: (await ledger.entriesForRequest(ctx, requestId)).map((e) => e.id),
    };
  }

  /** Index entries as the build counted them (pg_class.reltuples is set exactly by CREATE INDEX). */
  async function entriesIn(index: string): Promise<number> {
    const [{ n }] = await db.query(`SELECT reltuples::int AS n FROM pg_class WHERE relname = $1`, [index]);
    return n;
  }

  it('builds them over existing lines without the system lines, and every wallet list answers as before', async () => {
    const migration = own.migration(MIGRATION);
    try {
      await migration.down();
      const merchant = await developer();
      const other = await developer();
      const requestId = 'req_wallet_indexes_1';
      for (let i = 1; i <= 3; i++) await success(merchant, `${i}00`, `PAY_wallet_${i}`);
      await success({ ...merchant, requestId }, '40', 'PAY_wallet_usd', 'USD');
      await inTransaction(db, (m) => ledger.post(m, merchant, { currency: 'NGN', sourceType: 'refund', sourceId: randomUUID(), kind: 'refund', reference: 'RFD_wallet', lines: refundLines(Amount.parse('30')) }));
      await success(other, '500', 'PAY_wallet_2');
      const before = await everyList(merchant, requestId);
      expect(before.all).toHaveLength(3 * 3 + 3 + 1);
      expect(before.fees).toHaveLength(4 * 2);
      expect(before.usd).toHaveLength(3);
      expect(before.reference).toHaveLength(3);
      expect(before.refunds).toHaveLength(1);
      expect(before.request).toHaveLength(3);
      // The third NGN success, the USD one and the refund were posted after SINCE.
      expect(before.since).toHaveLength(3 + 3 + 1);
      expect(before.feesSince).toHaveLength(2 + 2);

      await migration.up();

      const [{ wallet, total }] = await db.query(`SELECT count(*) FILTER (WHERE account = 'wallet')::int AS wallet, count(*)::int AS total FROM ledger_entries`);
      expect([wallet, total]).toEqual([5 * 3 + 1, 5 * 6 + 2]);
      for (const index of WALLET_INDEXES) expect([index, await entriesIn(index)]).toEqual([index, wallet]);
      const [{ left }] = await db.query(`SELECT count(*)::int AS left FROM pg_class WHERE relname = ANY ($1)`, [REPLACED]);
      expect(left).toBe(0);
      expect(await everyList(merchant, requestId)).toEqual(before);

      // Lines written after it: the new indexes take the wallet's.
      await success({ ...merchant, requestId: 'req_wallet_indexes_2' }, '7', 'PAY_wallet_after');
      const after = await everyList(merchant, 'req_wallet_indexes_2');
      expect(after.all.slice(3)).toEqual(before.all);
      expect(after.request).toEqual(after.all.slice(0, 3).reverse());
      await assertLedgerInvariants(db);
    } finally {
      // Every step of it can run again: the next test reads the migrated schema whatever happened here.
      await migration.up();
      await migration.release();
    }
  }, 60_000);

  it('plans every wallet list statement on a wallet-only index, also without its values', async () => {
    const merchant = await developer();
    // One account among many, as on a platform, and analysed: a statement planned without its
    // values then expects one account's share of the lines, and reads that account's index range.
    for (let i = 0; i < 150; i++) await success(await developer(), '10', `PAY_wallet_other_${i}`);
    for (let i = 0; i < 50; i++) await success(merchant, '10', `PAY_wallet_many_${i}`);
    await success({ ...merchant, requestId: 'req_wallet_indexes_plan' }, '10', 'PAY_wallet_plan');
    await db.query('ANALYZE ledger_entries');
    const yearAgo = new Date(clock.now().getTime() - 365 * 86_400_000);
    const filters: Array<Omit<LedgerEntryFilter, 'limit'>> = [
      {},
      { type: 'fee' },
      { currency: 'NGN' },
      { type: 'credit', currency: 'NGN' },
      { reference: 'PAY_wallet_plan' },
      { from: yearAgo },
      { type: 'debit', from: yearAgo },
    ];
    const sent = await statementsRun(
      async () => {
        for (const filter of filters) await ledger.listEntries(merchant, { limit: 20, ...filter });
        await ledger.entriesForRequest(merchant, 'req_wallet_indexes_plan');
      },
      (sql) => sql.includes('FROM ledger_entries') || sql.includes('JOIN ledger_entries'),
    );
    expect(sent).toHaveLength(filters.length + 1);
    for (const [sql, params] of sent) {
      // Sequential scans off: the test's table is small, and the question is which index it can read.
      const plan = await genericPlan(db, sql, params, { enable_seqscan: 'off' });
      expect(plan).toMatch(/ledger_entries_wallet_(listing|type_listing|reference|posting|type_time)/);
      expect(plan).not.toMatch(/Seq Scan on ledger_entries/);
    }
  });
});
