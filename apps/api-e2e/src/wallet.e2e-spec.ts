import { Amount, type DeveloperContext, inTransaction } from '@gateway/platform';
import { LedgerService, paymentSuccessLines, refundLines, reserveLines, type Posting } from '@gateway/domain/ledger';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { type TestGateway, startGateway } from './support/gateway';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';

const a = (value: string) => Amount.parse(value);

describe('wallet balance and ledger', () => {
  let gateway: TestGateway;
  let merchant: TestMerchant;
  let test: DeveloperContext;

  beforeAll(async () => {
    gateway = await startGateway();
    merchant = await createMerchant(gateway, { identityVerified: true });
    test = { developerId: merchant.developerId, mode: 'test' };
  });
  afterAll(async () => {
    await gateway.close();
  });

  /** Posts through the gateway's own LedgerService, in a transaction, as payments and refunds will. */
  async function post(ctx: DeveloperContext, lines: Posting['lines'], options: Partial<Posting> = {}): Promise<void> {
    const ledger = gateway.app.get(LedgerService, { strict: false });
    const dataSource = gateway.app.get(DataSource, { strict: false });
    await inTransaction(dataSource, (m) =>
      ledger.post(m, ctx, { currency: 'NGN', sourceType: 'payment', sourceId: randomUUID(), kind: 'success', reference: `PAY_${randomUUID().slice(0, 8)}`, lines, ...options }),
    );
  }
  const paid = (amount: string, platformFee = '0', providerFee = '0') => paymentSuccessLines({ amount: a(amount), platformFee: a(platformFee), providerFee: a(providerFee) });
  const get = (path: string, key = merchant.key) => http(gateway.baseUrl, 'GET', path, { token: key });

  it('shows a new merchant a zero NGN balance', async () => {
    const fresh = await createMerchant(gateway);
    const res = await get('/api/v1/wallet/balance', fresh.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { available_balance: 0, pending_balance: 0, reserved_balance: 0, total_balance: 0, currency: 'NGN' } });
    const ledger = await get('/api/v1/wallet/ledger/', fresh.key);
    expect(ledger.body).toEqual({ success: true, data: [], meta: { next_cursor: null, has_more: false, limit: 20 } });
  });

  it('a 5,000.50 payment (fees 10 + 75.25), a 1,000 refund and a 500 payout hold: balance and entries as JSON numbers', async () => {
    await post(test, paid('5000.50', '10', '75.25'), { reference: 'PAY_main' });
    await post(test, refundLines(a('1000')), { sourceType: 'refund', kind: 'refund', reference: 'RFD_main' });
    await post(test, reserveLines(a('500')), { sourceType: 'transfer', kind: 'reserve', reference: 'TRF_main' });

    const balance = await get('/api/v1/wallet/balance/?currency=NGN');
    expect(balance.status).toBe(200);
    expect(balance.body.data).toEqual({ available_balance: 3415.25, pending_balance: 0, reserved_balance: 500, total_balance: 3915.25, currency: 'NGN' });

    const ledger = await get('/api/v1/wallet/ledger');
    expect(ledger.status).toBe(200);
    expect(ledger.body.data.map((e: Record<string, unknown>) => [e.type, e.amount, e.direction, e.balance_type, e.reference])).toEqual([
      ['debit', 500, 'credit', 'reserved', 'TRF_main'],
      ['debit', 500, 'debit', 'available', 'TRF_main'],
      ['debit', 1000, 'debit', 'available', 'RFD_main'],
      ['fee', 75.25, 'debit', 'available', 'PAY_main'],
      ['fee', 10, 'debit', 'available', 'PAY_main'],
      ['credit', 5000.5, 'credit', 'available', 'PAY_main'],
    ]);
    expect(ledger.body.data[5]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'credit',
      amount: 5000.5,
      direction: 'credit',
      balance_type: 'available',
      currency: 'NGN',
      reference: 'PAY_main',
      description: 'Payment received',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const fees = await get('/api/v1/wallet/ledger/?type=fee');
    expect(fees.body.data.map((e: { amount: number }) => e.amount)).toEqual([75.25, 10]);
  });

  it('filters by currency: USD money shows only under USD', async () => {
    const usd = await createMerchant(gateway);
    const ctx: DeveloperContext = { developerId: usd.developerId, mode: 'test' };
    await post(ctx, paid('12.34'), { currency: 'USD' });
    await post(ctx, paid('200'));
    expect((await get('/api/v1/wallet/balance?currency=USD', usd.key)).body.data).toMatchObject({ available_balance: 12.34, currency: 'USD' });
    expect((await get('/api/v1/wallet/balance', usd.key)).body.data).toMatchObject({ available_balance: 200, currency: 'NGN' });
    expect((await get('/api/v1/wallet/balance?currency=GBP', usd.key)).body.data).toMatchObject({ total_balance: 0, currency: 'GBP' });
    const usdLedger = await get('/api/v1/wallet/ledger?currency=USD', usd.key);
    expect(usdLedger.body.data.map((e: { amount: number; currency: string }) => [e.amount, e.currency])).toEqual([[12.34, 'USD']]);
    expect((await get('/api/v1/wallet/ledger', usd.key)).body.data.map((e: { currency: string }) => e.currency)).toEqual(['NGN', 'USD']);
  });

  it.each(['EUR', 'ngn', ''])('refuses currency %j with 400 invalid_currency on both endpoints', async (currency) => {
    for (const path of ['/api/v1/wallet/balance', '/api/v1/wallet/ledger/']) {
      const res = await get(`${path}?currency=${currency}`);
      expect([path, res.status, res.body.code]).toEqual([path, 400, 'invalid_currency']);
      expect(res.body.success).toBe(false);
    }
  });

  it.each([['limit=0'], ['limit=101'], ['type=refund'], ['from=yesterday'], ['cursor=bogus'], ['page=2']])('refuses ?%s with 400 validation_error', async (query) => {
    const res = await get(`/api/v1/wallet/ledger?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
  });

  it('pages 25 entries newest first without gaps or duplicates', async () => {
    const pager = await createMerchant(gateway);
    const ctx: DeveloperContext = { developerId: pager.developerId, mode: 'test' };
    for (let i = 1; i <= 25; i++) await post(ctx, paid(`${i}`), { reference: `PAY_${i}` });
    const references: string[] = [];
    let path = '/api/v1/wallet/ledger?limit=10';
    const sizes: number[] = [];
    for (;;) {
      const res = await get(path, pager.key);
      expect(res.status).toBe(200);
      sizes.push(res.body.data.length);
      references.push(...res.body.data.map((e: { reference: string }) => e.reference));
      expect(res.body.meta.limit).toBe(10);
      if (!res.body.meta.has_more) {
        expect(res.body.meta.next_cursor).toBeNull();
        break;
      }
      path = `/api/v1/wallet/ledger?limit=10&cursor=${encodeURIComponent(res.body.meta.next_cursor)}`;
    }
    expect(sizes).toEqual([10, 10, 5]);
    expect(references).toEqual(Array.from({ length: 25 }, (_, i) => `PAY_${25 - i}`));
  });

  it('pages without gap or duplicate while entries are being posted between the pages', async () => {
    const pager = await createMerchant(gateway);
    const ctx: DeveloperContext = { developerId: pager.developerId, mode: 'test' };
    for (let i = 1; i <= 7; i++) {
      gateway.clock.advance(1000);
      await post(ctx, paid(`${i}`), { reference: `PAY_${i}` });
    }
    const references: string[] = [];
    let cursor: string | null = null;
    let late = 0;
    do {
      const res: Awaited<ReturnType<typeof get>> = await get(`/api/v1/wallet/ledger?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, pager.key);
      expect(res.status).toBe(200);
      references.push(...res.body.data.map((e: { reference: string }) => e.reference));
      cursor = res.body.meta.next_cursor;
      // An entry posted mid-listing is newer than the cursor: it never shifts the pages.
      gateway.clock.advance(1000);
      await post(ctx, paid('1'), { reference: `LATE_${++late}` });
    } while (cursor);
    expect(references).toEqual(Array.from({ length: 7 }, (_, i) => `PAY_${7 - i}`));
  });

  it('filters by time with from and to (inclusive)', async () => {
    const timed = await createMerchant(gateway);
    const ctx: DeveloperContext = { developerId: timed.developerId, mode: 'test' };
    gateway.clock.set(new Date('2025-03-01T10:00:00Z'));
    await post(ctx, paid('1'), { reference: 'PAY_march' });
    gateway.clock.set(new Date('2025-04-15T10:00:00Z'));
    await post(ctx, paid('2'), { reference: 'PAY_april' });
    gateway.clock.set(new Date());
    const refs = async (query: string) => (await get(`/api/v1/wallet/ledger?${query}`, timed.key)).body.data.map((e: { reference: string }) => e.reference);
    expect(await refs('from=2025-04-01')).toEqual(['PAY_april']);
    expect(await refs('to=2025-03-01')).toEqual(['PAY_march']);
    expect(await refs('from=2025-03-01T10:00:00Z&to=2025-04-15T10:00:00Z')).toEqual(['PAY_april', 'PAY_march']);
    expect(await refs('from=2025-05-01')).toEqual([]);
  });

  it('a time range lists exactly its entries, by seq even where the clock went back, and pages with the cursor', async () => {
    const timed = await createMerchant(gateway);
    const ctx: DeveloperContext = { developerId: timed.developerId, mode: 'test' };
    // Posted in this order (so in this seq order), stamped by a clock moved back and forth.
    const stamps: Array<[string, string]> = [
      ['PAY_at_from', '2025-06-01T10:00:00.000Z'],
      ['PAY_just_before', '2025-06-01T09:59:59.999Z'],
      ['PAY_at_to', '2025-06-01T12:00:00.000Z'],
      ['PAY_just_after', '2025-06-01T12:00:00.001Z'],
      ['PAY_clock_back', '2025-06-01T11:00:00.000Z'],
      ['PAY_next_day', '2025-06-02T11:00:00.000Z'],
      ['PAY_clock_back_again', '2025-06-01T10:30:00.000Z'],
    ];
    for (const [reference, at] of stamps) {
      gateway.clock.set(new Date(at));
      await post(ctx, paid('1'), { reference });
    }
    gateway.clock.set(new Date());
    const range = 'from=2025-06-01T10:00:00Z&to=2025-06-01T12:00:00Z';
    const inRange = ['PAY_clock_back_again', 'PAY_clock_back', 'PAY_at_to', 'PAY_at_from'];
    const pages = async (query: string, limit: number) => {
      const references: string[][] = [];
      let cursor: string | null = null;
      do {
        const res: Awaited<ReturnType<typeof get>> = await get(`/api/v1/wallet/ledger?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, timed.key);
        expect(res.status).toBe(200);
        references.push(res.body.data.map((e: { reference: string }) => e.reference));
        cursor = res.body.meta.next_cursor;
      } while (cursor);
      return references;
    };
    // The unfiltered list's order, kept to the range: the filter changes which entries, never their order.
    const all = (await get('/api/v1/wallet/ledger?limit=100', timed.key)).body.data as Array<{ reference: string; created_at: string }>;
    const kept = all.filter((e) => e.created_at >= '2025-06-01T10:00:00.000Z' && e.created_at <= '2025-06-01T12:00:00.000Z');
    expect(kept.map((e) => e.reference)).toEqual(inRange);
    expect(await pages(range, 20)).toEqual([inRange]);
    expect(await pages(range, 3)).toEqual([inRange.slice(0, 3), inRange.slice(3)]);
    expect(await pages(range, 1)).toEqual(inRange.map((reference) => [reference]));
    expect(await pages(`${range}&currency=NGN&type=credit`, 2)).toEqual([inRange.slice(0, 2), inRange.slice(2)]);
    expect(await pages(`${range}&currency=USD`, 20)).toEqual([[]]);
    // A type none of the range's entries has: one empty page.
    expect(await pages(`${range}&type=debit`, 20)).toEqual([[]]);
    expect(await pages('from=2025-06-01T12:00:00.001Z', 20)).toEqual([['PAY_next_day', 'PAY_just_after']]);
    expect(await pages('to=2025-06-01T09:59:59.999Z', 20)).toEqual([['PAY_just_before']]);
  });

  it('shows nothing to another merchant or to the other mode', async () => {
    await post(test, paid('42'), { reference: 'PAY_private' });
    const other = await createMerchant(gateway);
    expect((await get('/api/v1/wallet/balance', other.key)).body.data.total_balance).toBe(0);
    expect((await get('/api/v1/wallet/ledger', other.key)).body.data).toEqual([]);
    const live = await merchant.issueKey({ mode: 'live' });
    expect((await get('/api/v1/wallet/balance', live.key)).body.data.total_balance).toBe(0);
    expect((await get('/api/v1/wallet/ledger', live.key)).body.data).toEqual([]);
    await post({ ...test, mode: 'live' }, paid('7'), { reference: 'PAY_live' });
    expect((await get('/api/v1/wallet/balance', live.key)).body.data.available_balance).toBe(7);
    expect((await get('/api/v1/wallet/ledger', live.key)).body.data.map((e: { reference: string }) => e.reference)).toEqual(['PAY_live']);
    const testLedger = (await get('/api/v1/wallet/ledger?limit=100')).body.data.map((e: { reference: string }) => e.reference);
    expect(testLedger).toContain('PAY_private');
    expect(testLedger).not.toContain('PAY_live');
  });

  it('documents both routes, their shapes and their error codes in the OpenAPI document', async () => {
    const { body: doc } = await http(gateway.baseUrl, 'GET', '/api/docs.json');
    const balance = doc.paths['/api/v1/wallet/balance'].get;
    const ledger = doc.paths['/api/v1/wallet/ledger'].get;
    expect(balance.description).toEqual(expect.stringContaining('reserved_balance'));
    expect(ledger.description).toEqual(expect.stringContaining('direction'));
    expect(Object.keys(balance.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403']));
    expect(ledger.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['limit', 'cursor', 'currency', 'type', 'from', 'to']));
  });

  it('answers 403 insufficient_scope to a key without wallet:read, and serves one that has it', async () => {
    const narrow = await merchant.issueKey({ scopes: ['customers:read'] });
    for (const path of ['/api/v1/wallet/balance', '/api/v1/wallet/ledger']) {
      const res = await get(path, narrow.key);
      expect([path, res.status, res.body.code]).toEqual([path, 403, 'insufficient_scope']);
    }
    const reader = await merchant.issueKey({ scopes: ['wallet:read'] });
    expect((await get('/api/v1/wallet/balance', reader.key)).status).toBe(200);
    expect((await get('/api/v1/wallet/balance')).status).toBe(200);
    expect((await http(gateway.baseUrl, 'GET', '/api/v1/wallet/balance')).status).toBe(401);
  });
});
