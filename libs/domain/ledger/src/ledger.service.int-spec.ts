import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { Amount, type DeveloperContext, inTransaction } from '@gateway/platform';
import { createDomainTestContext, refusalOf } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { LedgerDuplicatePostingError, LedgerUnbalancedError } from './ledger.errors';
import { LedgerModule } from './ledger.module';
import { LedgerService } from './ledger.service';
import type { Posting, PostingLine } from './ledger.types';
import { paymentSuccessLines, refundLines, releaseReserveLines, reserveLines, settleReservedLines, virtualAccountCreditLines } from './posting-lines';
import { assertLedgerInvariants, findLedgerInvariantViolations } from './testing';

const a = (value: string) => Amount.parse(value);

describe('LedgerService', () => {
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
    const developer = await developers.create({ email: `ledger-${randomUUID()}@example.com`, name: 'L' });
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
  const balanceOf = async (ctx: DeveloperContext, currency: 'NGN' | 'USD' = 'NGN') => {
    const b = await ledger.balance(ctx, currency);
    return { available: b.available.toString(), pending: b.pending.toString(), reserved: b.reserved.toString(), total: b.total.toString() };
  };

  it('reads zeros for a wallet never used', async () => {
    const ctx = await newMerchant();
    expect(await balanceOf(ctx)).toEqual({ available: '0.00', pending: '0.00', reserved: '0.00', total: '0.00' });
    expect((await ledger.listEntries(ctx, { limit: 20 })).items).toEqual([]);
  });

  it('payment 10,000 (fees 10 + 150, 25% split), refund 1,000, payout 2,000 reserved then settled, 500 deposit: balances agree with entries', async () => {
    const ctx = await newMerchant();
    await post(ctx, posting(paymentSuccessLines({ amount: a('10000'), platformFee: a('10'), providerFee: a('150'), shares: [{ subaccountCode: 'ACCT_x1', amount: a('2500') }] })));
    expect(await balanceOf(ctx)).toEqual({ available: '7340.00', pending: '0.00', reserved: '0.00', total: '7340.00' });

    await post(ctx, posting(refundLines(a('1000')), { sourceType: 'refund', kind: 'refund', reference: 'RFD_1' }));
    const transfer = randomUUID();
    await post(ctx, posting(reserveLines(a('2000')), { sourceType: 'transfer', sourceId: transfer, kind: 'reserve', reference: 'TRF_1' }));
    expect(await balanceOf(ctx)).toEqual({ available: '4340.00', pending: '0.00', reserved: '2000.00', total: '6340.00' });

    await post(ctx, posting(settleReservedLines(a('2000'), { entryType: 'debit' }), { sourceType: 'transfer', sourceId: transfer, kind: 'settle', reference: 'TRF_1' }));
    await post(ctx, posting(virtualAccountCreditLines(a('500.55')), { sourceType: 'virtual_account_deposit', reference: 'VA_1' }));
    expect(await balanceOf(ctx)).toEqual({ available: '4840.55', pending: '0.00', reserved: '0.00', total: '4840.55' });

    const entries = (await ledger.listEntries(ctx, { limit: 100 })).items;
    expect(Amount.sum(entries.map((e) => e.amount)).toString()).toBe('4840.55');
    expect(entries.map((e) => [e.entryType, e.bucket, e.amount.toString(), e.reference])).toEqual([
      ['virtual_account_credit', 'available', '500.55', 'VA_1'],
      ['debit', 'reserved', '-2000.00', 'TRF_1'],
      ['debit', 'reserved', '2000.00', 'TRF_1'],
      ['debit', 'available', '-2000.00', 'TRF_1'],
      ['debit', 'available', '-1000.00', 'RFD_1'],
      ['debit', 'available', '-2500.00', expect.stringMatching(/^PAY_/)],
      ['fee', 'available', '-150.00', expect.stringMatching(/^PAY_/)],
      ['fee', 'available', '-10.00', expect.stringMatching(/^PAY_/)],
      ['credit', 'available', '10000.00', expect.stringMatching(/^PAY_/)],
    ]);
    expect(await findLedgerInvariantViolations(dataSource)).toEqual([]);
  });

  it('a failed payout releases its hold: reserved 300 goes back to available', async () => {
    const ctx = await newMerchant();
    await post(ctx, posting(paymentSuccessLines({ amount: a('1000'), platformFee: a('0'), providerFee: a('0') })));
    const transfer = randomUUID();
    await post(ctx, posting(reserveLines(a('300')), { sourceType: 'transfer', sourceId: transfer, kind: 'reserve' }));
    await post(ctx, posting(releaseReserveLines(a('300')), { sourceType: 'transfer', sourceId: transfer, kind: 'release' }));
    expect(await balanceOf(ctx)).toEqual({ available: '1000.00', pending: '0.00', reserved: '0.00', total: '1000.00' });
  });

  it('a refund of 100.01 against 100.00 available is refused with insufficient_wallet_balance and writes nothing', async () => {
    const ctx = await newMerchant();
    await post(ctx, posting(paymentSuccessLines({ amount: a('100'), platformFee: a('0'), providerFee: a('0') })));
    const refund = posting(refundLines(a('100.01')), { sourceType: 'refund', kind: 'refund' });
    await expect(post(ctx, refund)).rejects.toMatchObject({ code: 'insufficient_wallet_balance' });
    expect(await balanceOf(ctx)).toMatchObject({ available: '100.00' });
    expect((await ledger.listEntries(ctx, { limit: 20 })).items).toHaveLength(1);
    // Nothing half-written: the same refund may be posted once the money is there.
    await post(ctx, posting(paymentSuccessLines({ amount: a('0.01'), platformFee: a('0'), providerFee: a('0') })));
    await post(ctx, refund);
    expect(await balanceOf(ctx)).toMatchObject({ available: '0.00' });
  });

  it('refuses settling more than is reserved even when available could cover it', async () => {
    const ctx = await newMerchant();
    await post(ctx, posting(paymentSuccessLines({ amount: a('1000'), platformFee: a('0'), providerFee: a('0') })));
    await expect(post(ctx, posting(settleReservedLines(a('1')), { sourceType: 'settlement', kind: 'settle' }))).rejects.toMatchObject({ code: 'insufficient_wallet_balance' });
  });

  it('refuses posting the same payment success twice, whatever the amounts, and keeps the first', async () => {
    const ctx = await newMerchant();
    const first = posting(paymentSuccessLines({ amount: a('250'), platformFee: a('10'), providerFee: a('0') }));
    await post(ctx, first);
    const again = { ...first, lines: paymentSuccessLines({ amount: a('999'), platformFee: a('0'), providerFee: a('0') }) };
    const error = await post(ctx, again).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerDuplicatePostingError);
    expect(error).toMatchObject({ code: 'conflict', sourceType: 'payment', sourceId: first.sourceId, kind: 'success' });
    // The same source with another kind (a refund of that payment) is a different posting.
    await post(ctx, { ...first, sourceType: 'payment', kind: 'refund:1', lines: refundLines(a('40')) });
    expect(await balanceOf(ctx)).toMatchObject({ available: '200.00' });
    // A duplicate debit is refused as a duplicate too, not as a balance problem.
    await expect(post(ctx, { ...first, kind: 'refund:1', lines: refundLines(a('40')) })).rejects.toBeInstanceOf(LedgerDuplicatePostingError);
  });

  it('rolls the caller back on a duplicate: its own writes in the same transaction disappear', async () => {
    const ctx = await newMerchant();
    const first = posting(paymentSuccessLines({ amount: a('50'), platformFee: a('0'), providerFee: a('0') }));
    await post(ctx, first);
    await expect(
      inTransaction(dataSource, async (m) => {
        await ledger.post(m, ctx, posting(virtualAccountCreditLines(a('7')), { sourceType: 'virtual_account_deposit' }));
        await ledger.post(m, ctx, first);
      }),
    ).rejects.toBeInstanceOf(LedgerDuplicatePostingError);
    expect(await balanceOf(ctx)).toMatchObject({ available: '50.00' });
  });

  it('refuses an unbalanced posting (credit 100.00 against 99.99) before writing anything', async () => {
    const ctx = await newMerchant();
    const lines: PostingLine[] = [
      { account: 'wallet', entryType: 'credit', amount: a('100'), description: 'x' },
      { account: 'provider_clearing', entryType: 'credit', amount: a('-99.99'), description: 'x' },
    ];
    await expect(post(ctx, posting(lines))).rejects.toBeInstanceOf(LedgerUnbalancedError);
    expect(await balanceOf(ctx)).toMatchObject({ total: '0.00' });
    const [{ count }] = await dataSource.query('SELECT count(*)::int AS count FROM ledger_postings WHERE developer_id = $1', [ctx.developerId]);
    expect(count).toBe(0);
  });

  it('the database refuses UPDATE, DELETE and TRUNCATE of entries and postings', async () => {
    const ctx = await newMerchant();
    await post(ctx, posting(paymentSuccessLines({ amount: a('10'), platformFee: a('0'), providerFee: a('0') })));
    for (const sql of [
      `UPDATE ledger_entries SET amount = amount * 2 WHERE developer_id = '${ctx.developerId}'`,
      `DELETE FROM ledger_entries WHERE developer_id = '${ctx.developerId}'`,
      `UPDATE ledger_postings SET kind = 'other' WHERE developer_id = '${ctx.developerId}'`,
      `DELETE FROM ledger_postings WHERE developer_id = '${ctx.developerId}'`,
      'TRUNCATE ledger_entries CASCADE',
      'TRUNCATE ledger_postings CASCADE',
    ]) {
      await expect(dataSource.query(sql)).rejects.toThrow(/append-only/);
    }
    expect(await balanceOf(ctx)).toMatchObject({ available: '10.00' });
    expect((await ledger.listEntries(ctx, { limit: 20 })).items.map((e) => e.amount.toString())).toEqual(['10.00']);
  });

  it('keeps modes, developers and currencies apart', async () => {
    const test = await newMerchant();
    const live: DeveloperContext = { ...test, mode: 'live' };
    const other = await newMerchant();
    await post(test, posting(paymentSuccessLines({ amount: a('300'), platformFee: a('0'), providerFee: a('0') })));
    await post(live, posting(paymentSuccessLines({ amount: a('70'), platformFee: a('0'), providerFee: a('0') })));
    await post(test, posting(paymentSuccessLines({ amount: a('5'), platformFee: a('0'), providerFee: a('0') }), { currency: 'USD' }));
    expect(await balanceOf(test)).toMatchObject({ available: '300.00' });
    expect(await balanceOf(test, 'USD')).toMatchObject({ available: '5.00' });
    expect(await balanceOf(live)).toMatchObject({ available: '70.00' });
    expect(await balanceOf(other)).toMatchObject({ total: '0.00' });
    expect((await ledger.listEntries(live, { limit: 20 })).items.map((e) => e.amount.toString())).toEqual(['70.00']);
    expect((await ledger.listEntries(test, { limit: 20, currency: 'USD' })).items.map((e) => e.amount.toString())).toEqual(['5.00']);
    expect((await ledger.listEntries(other, { limit: 20 })).items).toEqual([]);
    // Overdrawing test mode is refused even though live holds money, and the reverse.
    await expect(post(live, posting(refundLines(a('71')), { sourceType: 'refund', kind: 'refund' }))).rejects.toMatchObject({ code: 'insufficient_wallet_balance' });
  });

  it('pages newest first without gaps or duplicates, and filters by type and reference', async () => {
    const ctx = await newMerchant();
    for (let i = 1; i <= 7; i++) {
      await post(ctx, posting(paymentSuccessLines({ amount: a(`${i}`), platformFee: a('0.5'), providerFee: a('0') }), { reference: `PAY_${i}` }));
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await ledger.listEntries(ctx, { limit: 3, cursor });
      seen.push(...page.items.map((e) => `${e.reference}:${e.entryType}`));
      cursor = page.nextCursor ?? undefined;
      expect(page.hasMore).toBe(cursor !== undefined);
    } while (cursor);
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1].flatMap((i) => [`PAY_${i}:fee`, `PAY_${i}:credit`]));
    expect((await ledger.listEntries(ctx, { limit: 20, type: 'fee' })).items).toHaveLength(7);
    expect((await ledger.listEntries(ctx, { limit: 20, reference: 'PAY_3' })).items.map((e) => e.amount.toString())).toEqual(['-0.50', '3.00']);
    await expect(ledger.listEntries(ctx, { limit: 20, cursor: 'bogus' })).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('the invariant checker detects a slot changed behind the ledger, an unbalanced posting and a stray entry', async () => {
    const ctx = await newMerchant();
    await post(ctx, posting(paymentSuccessLines({ amount: a('80'), platformFee: a('0'), providerFee: a('0') })));
    await expect(assertLedgerInvariants(dataSource)).resolves.toBeUndefined();
    // Broken inside a transaction that is rolled back, so parallel test files never see it.
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      await runner.query(
        `UPDATE wallet_balance_slots SET available = available + 1 WHERE wallet_id = (SELECT id FROM wallets WHERE developer_id = $1) AND slot = 3`,
        [ctx.developerId],
      );
      const [{ id: postingId }] = await runner.query(
        `INSERT INTO ledger_postings (developer_id, mode, currency, source_type, source_id, kind) VALUES ($1, 'test', 'NGN', 'manual', 'x', 'x') RETURNING id`,
        [ctx.developerId],
      );
      await runner.query(
        `INSERT INTO ledger_entries (posting_id, developer_id, mode, currency, account, entry_type, amount, reference, description, chain_slot, hash)
         VALUES ($1, $2, 'test', 'NGN', 'platform_fees', 'fee', 5, 'x', 'x', 0, sha256('x'))`,
        [postingId, ctx.developerId],
      );
      const violations = (await findLedgerInvariantViolations(runner.manager)).filter((v) => v.developer_id === ctx.developerId);
      expect(violations.map((v) => [v.violation, v.subject, v.detail])).toEqual([
        ['posting_unbalanced', postingId, '1 lines sum to 5.00'],
        ['wallet_balance_mismatch', 'available', 'entries sum to 80.00, slots to 81.00'],
      ]);
      await expect(assertLedgerInvariants(runner.manager)).rejects.toThrow(/wallet_balance_mismatch/);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    await expect(assertLedgerInvariants(process.env.TEST_DATABASE_URL as string)).resolves.toBeUndefined();
  });

  it("refuses a line on another merchant's, another mode's or another currency's posting", async () => {
    const ctx = await newMerchant();
    const stranger = await newMerchant();
    // Inside a transaction that is rolled back (each try in a savepoint), so the ledger is left as it was.
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      const [{ id: postingId }] = await runner.query(
        `INSERT INTO ledger_postings (developer_id, mode, currency, source_type, source_id, kind) VALUES ($1, 'test', 'NGN', 'manual', 'x', 'x') RETURNING id`,
        [ctx.developerId],
      );
      const line = async (developerId: string, mode: string, currency: string) => {
        const refusal = await refusalOf(
          runner,
          `INSERT INTO ledger_entries (posting_id, developer_id, mode, currency, account, entry_type, amount, reference, description, chain_slot, hash)
           VALUES ($1, $2, $3, $4, 'platform_fees', 'fee', 5, 'x', 'x', 0, sha256('x'))`,
          [postingId, developerId, mode, currency],
        );
        return refusal ? `${refusal.code} ${refusal.constraint}` : 'booked';
      };
      const refused = '23503 ledger_entries_posting_tenant_fkey';
      expect(await line(stranger.developerId, 'test', 'NGN')).toBe(refused);
      expect(await line(ctx.developerId, 'live', 'NGN')).toBe(refused);
      expect(await line(ctx.developerId, 'test', 'USD')).toBe(refused);
      expect(await line(ctx.developerId, 'test', 'NGN')).toBe('booked');
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
