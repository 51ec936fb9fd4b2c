import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { Amount, type DeveloperContext, inTransaction } from '@gateway/platform';
import { createDomainTestContext } from '@gateway/platform/testing';
import { createHash, randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { entryHash } from './entry-hash';
import { LedgerChainRepository } from './ledger-chain.repository';
import { LedgerModule } from './ledger.module';
import { LedgerService } from './ledger.service';
import type { ChainVerification, Posting, PostingLine } from './ledger.types';
import { paymentSuccessLines, refundLines, reserveLines, settleReservedLines, virtualAccountCreditLines } from './posting-lines';
import { assertLedgerInvariants } from './testing';

const a = (value: string) => Amount.parse(value);

interface StoredEntry {
  id: string;
  seq: string;
  chain_slot: number;
  account: string;
  amount: string;
  reference: string;
}

describe('the hash-chained ledger', () => {
  let app: INestApplicationContext;
  let ledger: LedgerService;
  let dataSource: DataSource;
  let developers: DevelopersService;

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([DevelopersModule, LedgerModule]));
    ledger = app.get(LedgerService);
    dataSource = app.get<DataSource>(getDataSourceToken());
    developers = app.get(DevelopersService);
  });
  afterAll(async () => {
    await assertLedgerInvariants(dataSource);
    await app.close();
  });

  async function newMerchant(): Promise<DeveloperContext> {
    const developer = await developers.create({ email: `ledger-chain-${randomUUID()}@example.com`, name: 'L' });
    return { developerId: developer.id, mode: 'test' };
  }
  const post = (ctx: DeveloperContext, posting: Posting) => inTransaction(dataSource, (m) => ledger.post(m, ctx, posting));
  const posting = (lines: PostingLine[], overrides: Partial<Posting> = {}): Posting => ({
    currency: 'NGN',
    sourceType: 'payment',
    sourceId: randomUUID(),
    kind: 'success',
    reference: `PAY_${randomUUID().slice(0, 8)}`,
    lines,
    ...overrides,
  });
  const paid = (amount: string, fee = '0') => posting(paymentSuccessLines({ amount: a(amount), platformFee: a(fee), providerFee: a('0') }));
  const entriesOf = (ctx: DeveloperContext, m: EntityManager = dataSource.manager): Promise<StoredEntry[]> =>
    m.query(`SELECT id, seq::text AS seq, chain_slot, account, amount::text AS amount, reference FROM ledger_entries e WHERE developer_id = $1 AND mode = $2 ORDER BY e.chain_slot, e.seq`, [
      ctx.developerId,
      ctx.mode,
    ]);
  /** The entries of the chain holding the most, in chain order. */
  async function longestChain(ctx: DeveloperContext): Promise<StoredEntry[]> {
    const chains = new Map<number, StoredEntry[]>();
    for (const e of await entriesOf(ctx)) chains.set(e.chain_slot, [...(chains.get(e.chain_slot) ?? []), e]);
    return [...chains.values()].sort((x, y) => y.length - x.length)[0];
  }

  /**
   * What verify says about the history after `tamper` — edited as a database superuser would
   * (replication role: the append-only triggers stand aside) in a transaction rolled back
   * afterwards, so no other test ever sees the damage.
   */
  async function verifyAfter(ctx: DeveloperContext, tamper: (m: EntityManager) => Promise<unknown>): Promise<ChainVerification> {
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      await runner.query(`SET LOCAL session_replication_role = replica`);
      await tamper(runner.manager);
      return await ledger.verifyChains(ctx, 'NGN', runner.manager);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }

  /** Between system accounts only: touches no balance slot, yet belongs to the wallet's history. */
  const systemOnly = (amount: string, overrides: Partial<Posting> = {}): Posting =>
    posting(
      [
        { account: 'provider_fees', entryType: 'fee', amount: a(amount).negate(), description: 'Provider fee refunded to the platform' },
        { account: 'platform_fees', entryType: 'fee', amount: a(amount), description: 'Provider fee refunded to the platform' },
      ],
      { sourceType: 'fee_adjustment', kind: 'refund', ...overrides },
    );

  /** A payment with a fee (4 lines), a refund, a payout reserved and settled, a deposit and a posting between system accounts. */
  async function merchantWithHistory(): Promise<DeveloperContext> {
    const ctx = await newMerchant();
    await post(ctx, paid('10000', '10'));
    await post(ctx, posting(refundLines(a('1000')), { sourceType: 'refund', kind: 'refund', reference: 'RFD_1' }));
    const transfer = randomUUID();
    await post(ctx, posting(reserveLines(a('2000')), { sourceType: 'transfer', sourceId: transfer, kind: 'reserve', reference: 'TRF_1' }));
    await post(ctx, posting(settleReservedLines(a('2000'), { entryType: 'debit' }), { sourceType: 'transfer', sourceId: transfer, kind: 'settle', reference: 'TRF_1' }));
    await post(ctx, posting(virtualAccountCreditLines(a('500.55')), { sourceType: 'virtual_account_deposit', reference: 'VA_1' }));
    await post(ctx, systemOnly('75.25', { reference: 'ADJ_1' }));
    return ctx;
  }

  it('a realistic history verifies: every entry is chained, each chain ends at its slot head, nothing outside a wallet', async () => {
    const ctx = await merchantWithHistory();
    const entries = await entriesOf(ctx);
    expect(await ledger.verifyChains(ctx, 'NGN')).toEqual({ verified: true, currency: 'NGN', entriesChecked: entries.length, chains: 16, firstBroken: null });
    // Each posting's lines sit in one chain, in line order.
    const chainsPerPosting: Array<{ n: number }> = await dataSource.query(
      `SELECT count(DISTINCT chain_slot)::int AS n FROM ledger_entries WHERE developer_id = $1 GROUP BY posting_id`,
      [ctx.developerId],
    );
    expect(chainsPerPosting.every((p) => p.n === 1)).toBe(true);
    // Without a currency every currency's wallet is walked; none but NGN exists.
    expect(await ledger.verifyChains(ctx)).toMatchObject({ verified: true, currency: null, entriesChecked: entries.length, chains: 16 });
    expect(await ledger.verifyChains(ctx, 'USD')).toEqual({ verified: true, currency: 'USD', entriesChecked: 0, chains: 0, firstBroken: null });
  });

  it('a posting between system accounts only still joins a chain of its wallet, created for it', async () => {
    const ctx = await newMerchant();
    await post(ctx, systemOnly('12.34', { currency: 'USD' }));
    const [wallet] = await dataSource.query(`SELECT id FROM wallets WHERE developer_id = $1 AND currency = 'USD'`, [ctx.developerId]);
    expect(wallet).toBeDefined();
    expect(await ledger.verifyChains(ctx, 'USD')).toMatchObject({ verified: true, entriesChecked: 2, chains: 16 });
  });

  it('the verifier computes the same hash as the database, byte for byte, for awkward values', async () => {
    const fields = {
      entryId: randomUUID(),
      postingId: randomUUID(),
      developerId: randomUUID(),
      mode: 'live',
      currency: 'KES',
      chainSlot: 15,
      sourceType: 'payment',
      sourceId: 'src:1,2',
      kind: 'success',
      account: 'subaccount:ACCT_x1',
      bucket: null,
      entryType: 'debit',
      amount: '-1234.50',
      reference: 'PAY_ü',
      description: 'Split share: 5, to "Ñandú" ✓\n',
      createdAtMicros: '1735787045123456',
      prevHash: createHash('sha256').update('the entry before').digest(),
    };
    const [{ hash }] = await dataSource.query(
      `SELECT ledger_entry_hash($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::numeric, $14, $15, $16::timestamptz, $17) AS hash`,
      [
        fields.entryId,
        fields.postingId,
        fields.developerId,
        fields.mode,
        fields.currency,
        fields.chainSlot,
        fields.sourceType,
        fields.sourceId,
        fields.kind,
        fields.account,
        fields.bucket,
        fields.entryType,
        '-1234.5', // stored as numeric(20,2): hashed as -1234.50
        fields.reference,
        fields.description,
        '2025-01-02T03:04:05.123456Z',
        fields.prevHash,
      ],
    );
    expect((hash as Buffer).toString('hex')).toBe(entryHash(fields).toString('hex'));
  });

  it('the database and the verifier agree on 300 entries of every shape (migration HashLedgerEntriesInOnePass builds the same bytes in one pass)', async () => {
    const texts = ['', 'a', 'PAY-1', 'ü', '✓ Ñandú', '日本語の説明', '🙂 emoji', 'comma, colon: 12:x,', 'line\nbreak', 'x'.repeat(300)];
    const amounts = ['0.01', '-0.01', '100.00', '-1234.50', '99999999999999999.99', '-5000.00', '12.30'];
    const cases = Array.from({ length: 300 }, (_, i) => ({
      entryId: randomUUID(),
      postingId: randomUUID(),
      developerId: randomUUID(),
      mode: i % 2 === 0 ? 'test' : 'live',
      currency: ['NGN', 'USD', 'GBP', 'KES'][i % 4],
      chainSlot: i % 16,
      sourceType: texts[i % texts.length] || 'payment',
      sourceId: texts[(i + 3) % texts.length],
      kind: texts[(i + 5) % texts.length],
      account: i % 3 === 0 ? 'wallet' : `subaccount:ACCT_${i}`,
      bucket: i % 3 === 0 ? 'available' : null,
      entryType: ['credit', 'debit', 'fee'][i % 3],
      amount: amounts[i % amounts.length],
      reference: texts[(i + 7) % texts.length],
      description: texts[(i + 1) % texts.length],
      // Microseconds since 1970 from 2001 to 2033, and an instant before 1970 as well.
      createdAtMicros: i === 0 ? '-86400000001' : String(1_000_000_000_000_000 + i * 3_333_333_333_337),
      prevHash: i % 5 === 0 ? null : createHash('sha256').update(`entry ${i}`).digest(),
    }));
    const rows = (await dataSource.query(
      `SELECT ledger_entry_hash(c.entry_id, c.posting_id, c.developer_id, c.mode, c.currency, c.chain_slot, c.source_type, c.source_id, c.kind,
                c.account, c.bucket, c.entry_type, c.amount, c.reference, c.description, 'epoch'::timestamptz + c.micros * interval '1 microsecond', c.prev_hash) AS hash
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::text[], $10::text[],
                     $11::text[], $12::text[], $13::numeric[], $14::text[], $15::text[], $16::numeric[], $17::bytea[])
           WITH ORDINALITY AS c(entry_id, posting_id, developer_id, mode, currency, chain_slot, source_type, source_id, kind, account,
                                bucket, entry_type, amount, reference, description, micros, prev_hash, n)
        ORDER BY c.n`,
      [
        cases.map((c) => c.entryId),
        cases.map((c) => c.postingId),
        cases.map((c) => c.developerId),
        cases.map((c) => c.mode),
        cases.map((c) => c.currency),
        cases.map((c) => c.chainSlot),
        cases.map((c) => c.sourceType),
        cases.map((c) => c.sourceId),
        cases.map((c) => c.kind),
        cases.map((c) => c.account),
        cases.map((c) => c.bucket),
        cases.map((c) => c.entryType),
        cases.map((c) => c.amount),
        cases.map((c) => c.reference),
        cases.map((c) => c.description),
        cases.map((c) => c.createdAtMicros),
        cases.map((c) => c.prevHash),
      ],
    )) as Array<{ hash: Buffer }>;
    expect(rows.map((row) => row.hash.toString('hex'))).toEqual(cases.map((c) => entryHash(c).toString('hex')));
  });

  it('detects an edited amount, description or reference (hash_mismatch at that entry)', async () => {
    const ctx = await merchantWithHistory();
    const chain = await longestChain(ctx);
    const target = chain[1];
    for (const edit of [`amount = amount + 1`, `description = description || ' '`, `reference = 'PAY_other'`, `created_at = created_at + interval '1 microsecond'`]) {
      const result = await verifyAfter(ctx, (m) => m.query(`UPDATE ledger_entries SET ${edit} WHERE id = $1`, [target.id]));
      expect([edit, result.verified, result.firstBroken]).toEqual([edit, false, expect.objectContaining({ currency: 'NGN', chain: target.chain_slot, reason: 'hash_mismatch', entryId: target.id })]);
    }
  });

  it('detects an edit that also rewrote the slots, so the balance invariants still hold', async () => {
    const ctx = await merchantWithHistory();
    const wallet = (await entriesOf(ctx)).find((e) => e.account === 'wallet' && e.amount === '10000.00') as StoredEntry;
    const result = await verifyAfter(ctx, async (m) => {
      await m.query(`UPDATE ledger_entries SET amount = amount + 500 WHERE id = $1`, [wallet.id]);
      await m.query(`UPDATE ledger_entries SET amount = amount - 500 WHERE posting_id = (SELECT posting_id FROM ledger_entries WHERE id = $1) AND account = 'provider_clearing'`, [wallet.id]);
      await m.query(`UPDATE wallet_balance_slots SET available = available + 500 WHERE wallet_id = (SELECT id FROM wallets WHERE developer_id = $1 AND mode = 'test' AND currency = 'NGN') AND slot = 0`, [
        ctx.developerId,
      ]);
      const violations = await m.query(`SELECT * FROM ledger_invariant_violations WHERE developer_id = $1`, [ctx.developerId]);
      expect(violations).toEqual([]);
    });
    expect(result.firstBroken).toMatchObject({ reason: 'hash_mismatch' });
  });

  it('detects a deleted entry: in the middle (prev_hash_mismatch at the next), at the end (chain_head_mismatch)', async () => {
    const ctx = await merchantWithHistory();
    const chain = await longestChain(ctx);
    const middle = await verifyAfter(ctx, (m) => m.query(`DELETE FROM ledger_entries WHERE id = $1`, [chain[1].id]));
    expect(middle.firstBroken).toEqual({ currency: 'NGN', chain: chain[0].chain_slot, reason: 'prev_hash_mismatch', entryId: chain[2].id, reference: chain[2].reference });
    const last = chain[chain.length - 1];
    const tail = await verifyAfter(ctx, (m) => m.query(`DELETE FROM ledger_entries WHERE id = $1`, [last.id]));
    const before = chain[chain.length - 2];
    expect(tail.firstBroken).toEqual({ currency: 'NGN', chain: last.chain_slot, reason: 'chain_head_mismatch', entryId: before.id, reference: before.reference });
    // The whole chain gone: its slot still names a last entry.
    const all = await verifyAfter(ctx, (m) => m.query(`DELETE FROM ledger_entries WHERE developer_id = $1 AND chain_slot = $2`, [ctx.developerId, last.chain_slot]));
    expect(all.firstBroken).toEqual({ currency: 'NGN', chain: last.chain_slot, reason: 'chain_head_mismatch', entryId: null, reference: null });
  });

  it('detects an inserted entry, even one hashed correctly onto the chain, and an entry moved to another chain', async () => {
    const ctx = await merchantWithHistory();
    const chain = await longestChain(ctx);
    const last = chain[chain.length - 1];
    // A copy of the last entry, chained after it with a valid hash, but behind the posting code's back: the slot head never moved.
    const forged = await verifyAfter(ctx, async (m) => {
      const [row] = await m.query(
        `SELECT e.*, p.source_type, p.source_id, p.kind, e.amount::text AS amount_text, (extract(epoch FROM e.created_at) * 1000000)::bigint::text AS micros
           FROM ledger_entries e JOIN ledger_postings p ON p.id = e.posting_id WHERE e.id = $1`,
        [last.id],
      );
      const id = randomUUID();
      const hash = entryHash({
        entryId: id,
        postingId: row.posting_id,
        developerId: ctx.developerId,
        mode: ctx.mode,
        currency: 'NGN',
        chainSlot: row.chain_slot,
        sourceType: row.source_type,
        sourceId: row.source_id,
        kind: row.kind,
        account: row.account,
        bucket: row.bucket,
        entryType: row.entry_type,
        amount: row.amount_text,
        reference: row.reference,
        description: row.description,
        createdAtMicros: row.micros,
        prevHash: row.hash,
      });
      await m.query(
        `INSERT INTO ledger_entries (id, posting_id, developer_id, mode, currency, account, bucket, entry_type, amount, reference, description, created_at, chain_slot, prev_hash, hash)
         SELECT $1, posting_id, developer_id, mode, currency, account, bucket, entry_type, amount, reference, description, created_at, chain_slot, hash, $2 FROM ledger_entries WHERE id = $3`,
        [id, hash, last.id],
      );
    });
    expect(forged.firstBroken).toMatchObject({ reason: 'chain_head_mismatch', chain: last.chain_slot });
    const moved = await verifyAfter(ctx, (m) => m.query(`UPDATE ledger_entries SET chain_slot = (chain_slot + 1) % 16 WHERE id = $1`, [last.id]));
    expect(moved.verified).toBe(false);
  });

  it('detects a reordered history: two entries of a chain swapping places (prev_hash_mismatch)', async () => {
    const ctx = await merchantWithHistory();
    const [first, second] = await longestChain(ctx);
    const result = await verifyAfter(ctx, async (m) => {
      // seq cannot be updated (GENERATED ALWAYS): delete both and put them back with each other's seq.
      const rows: Array<Record<string, unknown>> = await m.query(`SELECT * FROM ledger_entries WHERE id = ANY ($1)`, [[first.id, second.id]]);
      await m.query(`DELETE FROM ledger_entries WHERE id = ANY ($1)`, [[first.id, second.id]]);
      for (const row of rows) {
        const seq = row.id === first.id ? second.seq : first.seq;
        const columns = Object.keys(row).filter((c) => c !== 'seq');
        await m.query(
          `INSERT INTO ledger_entries (seq, ${columns.join(', ')}) OVERRIDING SYSTEM VALUE VALUES ($1, ${columns.map((_, i) => `$${i + 2}`).join(', ')})`,
          [seq, ...columns.map((c) => row[c])],
        );
      }
    });
    expect(result.firstBroken).toEqual({ currency: 'NGN', chain: first.chain_slot, reason: 'prev_hash_mismatch', entryId: second.id, reference: second.reference });
  });

  it('walks a history longer than one page (1,200 entries) and finds an edit on its second page', async () => {
    const ctx = await newMerchant();
    const many = Array.from({ length: 300 }, (_, i) => paid(`${i + 1}`, '0.5'));
    for (let i = 0; i < many.length; i += 20) await Promise.all(many.slice(i, i + 20).map((p) => post(ctx, p)));
    expect(await ledger.verifyChains(ctx, 'NGN')).toMatchObject({ verified: true, entriesChecked: 1200, chains: 16 });
    const entries = await entriesOf(ctx);
    const late = entries[1100];
    const result = await verifyAfter(ctx, (m) => m.query(`UPDATE ledger_entries SET description = 'edited' WHERE id = $1`, [late.id]));
    expect(result).toMatchObject({ verified: false, entriesChecked: 1100, firstBroken: { reason: 'hash_mismatch', entryId: late.id } });
  });

  it('reads one snapshot: a posting committed while the walk is under way is not half seen', async () => {
    const ctx = await merchantWithHistory();
    const before = (await entriesOf(ctx)).length;
    const readPage = LedgerChainRepository.prototype.chainPage;
    let posted = false;
    const spy = jest.spyOn(LedgerChainRepository.prototype, 'chainPage').mockImplementation(async function (this: LedgerChainRepository, ...args) {
      // After the slot heads were read, before the first entry is: another transaction commits a payment.
      if (!posted) {
        posted = true;
        await post(ctx, paid('5'));
      }
      return readPage.apply(this, args);
    });
    try {
      expect(await ledger.verifyChains(ctx, 'NGN')).toMatchObject({ verified: true, entriesChecked: before });
    } finally {
      spy.mockRestore();
    }
    expect(posted).toBe(true);
    expect(await ledger.verifyChains(ctx, 'NGN')).toMatchObject({ verified: true, entriesChecked: before + 2 });
  });

  it('records the API request behind each posting, credit or debit, and lists its wallet entries for that tenant only', async () => {
    const ctx = await newMerchant();
    const requestId = `req_${randomUUID()}`;
    const inRequest = { ...ctx, requestId };
    await post(inRequest, paid('100', '1'));
    await post(inRequest, posting(refundLines(a('20')), { sourceType: 'refund', kind: 'refund', reference: 'RFD_req' }));
    await post(ctx, paid('7'));
    const entries = await ledger.entriesForRequest(ctx, requestId);
    expect(entries.map((e) => [e.entryType, e.amount.toString(), e.bucket])).toEqual([
      ['credit', '100.00', 'available'],
      ['fee', '-1.00', 'available'],
      ['debit', '-20.00', 'available'],
    ]);
    const recorded: Array<{ request_id: string | null }> = await dataSource.query(`SELECT request_id FROM ledger_postings WHERE developer_id = $1 ORDER BY created_at, request_id`, [ctx.developerId]);
    expect(recorded.map((r) => r.request_id).sort()).toEqual([requestId, requestId, null].sort());
    expect(await ledger.entriesForRequest(await newMerchant(), requestId)).toEqual([]);
    expect(await ledger.entriesForRequest({ ...ctx, mode: 'live' }, requestId)).toEqual([]);
    expect(await ledger.entriesForRequest(ctx, 'req_unknown')).toEqual([]);
  });
});

