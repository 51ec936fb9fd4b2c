import { Amount, type DeveloperContext, inTransaction } from '@gateway/platform';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { LedgerService } from './ledger.service';
import { paymentSuccessLines, refundLines } from './posting-lines';
import { assertLedgerInvariants } from './testing';
import { type LedgerOfItsOwn, ledgerOfItsOwn } from './testing/ledger-of-its-own';

const MIGRATION = 'ChainLedgerEntries1764002800000';

/**
 * The migration that chains the ledger, run over entries written before it existed. A database of
 * its own: taking the migration down and up again locks the ledger tables, which no other test
 * file may wait behind.
 */
describe('chaining existing entries (migration ChainLedgerEntries)', () => {
  let own: LedgerOfItsOwn;
  let db: DataSource;
  let ledger: LedgerService;
  const developer = () => own.developer();

  beforeAll(async () => {
    own = await ledgerOfItsOwn('ledger_chain_migration');
    ({ db, ledger } = own);
  }, 60_000); // a migrated database of its own: slow on a busy machine
  afterAll(() => own?.close(), 30_000);

  /** A posting as the ledger wrote them before the chain: no chain columns, entries in line order. */
  async function legacyPosting(ctx: DeveloperContext, currency: string, lines: Array<[account: string, bucket: string | null, amount: string, description: string]>): Promise<void> {
    const [{ id }] = await db.query(
      `INSERT INTO ledger_postings (developer_id, mode, currency, source_type, source_id, kind) VALUES ($1, $2, $3, 'payment', $4, 'success') RETURNING id`,
      [ctx.developerId, ctx.mode, currency, randomUUID()],
    );
    for (const [account, bucket, amount, description] of lines) {
      await db.query(
        `INSERT INTO ledger_entries (posting_id, developer_id, mode, currency, account, bucket, entry_type, amount, reference, description)
         VALUES ($1, $2, $3, $4, $5, $6, 'credit', $7, 'PAY_legacy', $8)`,
        [id, ctx.developerId, ctx.mode, currency, account, bucket, amount, description],
      );
    }
  }

  it('chains each wallet’s existing entries in seq order, creates missing wallets, and new postings continue the chains', async () => {
    const migration = own.migration(MIGRATION);
    try {
      await migration.down();
      const merchant = await developer();
      const other = await developer();
      await db.query(`INSERT INTO wallets (developer_id, mode, currency) VALUES ($1, 'test', 'NGN'), ($2, 'test', 'NGN')`, [merchant.developerId, other.developerId]);
      await db.query(`INSERT INTO wallet_balance_slots (wallet_id, slot) SELECT w.id, s FROM wallets w, generate_series(0, 15) AS s`);
      for (let i = 1; i <= 5; i++) {
        await legacyPosting(merchant, 'NGN', [
          ['provider_clearing', null, `-${i}00.00`, 'Payment received'],
          ['wallet', 'available', `${i}00.00`, 'Payment received, “ünïcode”'],
        ]);
        await legacyPosting(other, 'NGN', [
          ['provider_clearing', null, '-1.00', 'Payment received'],
          ['wallet', 'available', '1.00', 'Payment received'],
        ]);
      }
      // Between system accounts only, in a currency with no wallet: one is made for it.
      await legacyPosting(merchant, 'USD', [
        ['provider_fees', null, '-2.50', 'Fee adjustment'],
        ['platform_fees', null, '2.50', 'Fee adjustment'],
      ]);
      await db.query(`UPDATE wallet_balance_slots s SET available = t.total FROM (
          SELECT w.id, sum(e.amount) AS total FROM ledger_entries e JOIN wallets w USING (developer_id, mode, currency) WHERE e.account = 'wallet' GROUP BY w.id
        ) t WHERE s.wallet_id = t.id AND s.slot = 4`);

      await migration.up();

      expect(await ledger.verifyChains(merchant)).toEqual({ verified: true, currency: null, entriesChecked: 12, chains: 32, firstBroken: null });
      expect(await ledger.verifyChains(other, 'NGN')).toMatchObject({ verified: true, entriesChecked: 10 });
      expect(await db.query(`SELECT DISTINCT chain_slot FROM ledger_entries WHERE developer_id = ANY ($1)`, [[merchant.developerId, other.developerId]])).toEqual([{ chain_slot: 0 }]);
      expect(await db.query(`SELECT count(*)::int AS n FROM ledger_postings WHERE request_id IS NOT NULL`)).toEqual([{ n: 0 }]);

      // The chains go on: a credit (on any slot) and a refund (locking every slot) after the backfill.
      await inTransaction(db, (m) =>
        ledger.post(m, merchant, {
          currency: 'NGN',
          sourceType: 'payment',
          sourceId: randomUUID(),
          kind: 'success',
          reference: 'PAY_new',
          lines: paymentSuccessLines({ amount: Amount.parse('50'), platformFee: Amount.parse('1'), providerFee: Amount.parse('0') }),
        }),
      );
      await inTransaction(db, (m) => ledger.post(m, merchant, { currency: 'NGN', sourceType: 'refund', sourceId: randomUUID(), kind: 'refund', reference: 'RFD_new', lines: refundLines(Amount.parse('30')) }));
      expect(await ledger.verifyChains(merchant, 'NGN')).toMatchObject({ verified: true, entriesChecked: 10 + 4 + 2 });
      await assertLedgerInvariants(db);

      // And back down: the columns and functions go, the entries stay.
      await migration.down();
      expect(await db.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE developer_id = $1`, [merchant.developerId])).toEqual([{ n: 18 }]);
      await migration.up();
      expect(await ledger.verifyChains(merchant)).toMatchObject({ verified: true, entriesChecked: 18 });
    } finally {
      await migration.release();
    }
  }, 30_000);
});
