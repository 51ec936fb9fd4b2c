import { LedgerService } from '@gateway/domain/ledger';
import { Client } from 'pg';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, paidPayment, type PaymentsHarness, startPaymentsHarness } from './support/payments';
import { type PortalClient, provisionAccount, signedInPlatformUser } from './support/portal-client';

/**
 * GET /api/v1/wallet/ledger/verify over a history made through the API (payments verified one by
 * one and many at once, a refund), then with a row edited by hand the way a database superuser
 * could. A database of its own: the hand edit must never reach another file's books (it is undone
 * before the harness checks the ledger invariants at close).
 */
describe('GET /api/v1/wallet/ledger/verify', () => {
  let h: PaymentsHarness;
  let merchant: TestMerchant;
  let other: TestMerchant;
  const paidReferences: string[] = [];
  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown) => http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body });
  const verify = (m: Pick<TestMerchant, 'key'>, query = '') => api(m, 'GET', `/wallet/ledger/verify${query}`);

  /** Runs statements as a superuser would by hand: the append-only triggers stand aside (replication role) for this transaction only. */
  async function asSuperuser(statements: Array<[string, unknown[]]>): Promise<void> {
    const db = new Client({ connectionString: h.databaseUrl });
    await db.connect();
    try {
      await db.query('BEGIN');
      await db.query('SET LOCAL session_replication_role = replica');
      for (const [sql, params] of statements) await db.query(sql, params);
      await db.query('COMMIT');
    } finally {
      await db.end();
    }
  }
  const query = async <T>(sql: string, params: unknown[]): Promise<T[]> => {
    const db = new Client({ connectionString: h.databaseUrl });
    await db.connect();
    try {
      return (await db.query(sql, params)).rows as T[];
    } finally {
      await db.end();
    }
  };
  const entriesOf = async (m: Pick<TestMerchant, 'developerId'>) =>
    (await query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_entries WHERE developer_id = $1 AND mode = 'test'`, [m.developerId]))[0].n;

  beforeAll(async () => {
    h = await startPaymentsHarness({}, { ownDatabase: true });
    merchant = await createMerchant(h.gateway, { identityVerified: true });
    other = await createMerchant(h.gateway);
    // One by one, then twelve at once: concurrent credits land on different balance slots, each on its own chain.
    for (const amount of [10000, 2500.5]) {
      const paid = await paidPayment(h.gateway, merchant, { amount, email: buyer() });
      expect(paid.status).toBe(200);
      paidReferences.push(paid.body.data.reference);
    }
    const many = await Promise.all(Array.from({ length: 12 }, (_, i) => paidPayment(h.gateway, merchant, { amount: 100 + i, email: buyer() })));
    expect(many.map((r) => r.status)).toEqual(Array(12).fill(200));
    await paidPayment(h.gateway, other, { amount: 700, email: buyer() });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('verifies a history of verified payments, concurrent payments and a refund: every entry, 16 chains', async () => {
    const refund = await api(merchant, 'POST', '/refunds', { payment_reference: paidReferences[0], amount: 1234.56 });
    expect(refund.status).toBe(201);
    await h.sim.idle();

    const res = await verify(merchant);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { verified: true, currency: null, entries_checked: await entriesOf(merchant), chains: 16, first_broken: null } });
    // The merchant's list shows its wallet lines only; verification covers the system lines too.
    expect(res.body.data.entries_checked).toBeGreaterThan((await api(merchant, 'GET', '/wallet/ledger?limit=100')).body.data.length);
    expect((await verify(merchant, '?currency=NGN')).body.data).toMatchObject({ verified: true, currency: 'NGN', chains: 16 });
    expect((await verify(merchant, '?currency=USD')).body.data).toEqual({ verified: true, currency: 'USD', entries_checked: 0, chains: 0, first_broken: null });
  });

  it('detects a ledger row edited by hand (hash_mismatch at that entry), and only in that wallet', async () => {
    const [credit] = (await api(merchant, 'GET', '/wallet/ledger?type=credit&limit=1')).body.data as Array<{ id: string; reference: string }>;
    // An ordinary UPDATE is refused by the append-only trigger; a superuser can set it aside.
    await expect(query(`UPDATE ledger_entries SET amount = amount + 1000 WHERE id = $1`, [credit.id])).rejects.toThrow(/append-only/);
    await asSuperuser([[`UPDATE ledger_entries SET amount = amount + 1000 WHERE id = $1`, [credit.id]]]);
    try {
      const res = await verify(merchant);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        verified: false,
        currency: null,
        entries_checked: expect.any(Number),
        chains: 16,
        first_broken: { currency: 'NGN', chain: expect.any(Number), reason: 'hash_mismatch', entry_id: credit.id, reference: credit.reference },
      });
      expect(res.body.data.entries_checked).toBeLessThan(await entriesOf(merchant));
      // Another developer's books, and this developer's other mode, are not this wallet: they still verify.
      expect((await verify(other)).body.data).toMatchObject({ verified: true, entries_checked: await entriesOf(other) });
      const live = await merchant.issueKey({ mode: 'live' });
      expect((await verify(live)).body.data).toEqual({ verified: true, currency: null, entries_checked: 0, chains: 0, first_broken: null });
    } finally {
      await asSuperuser([[`UPDATE ledger_entries SET amount = amount - 1000 WHERE id = $1`, [credit.id]]]);
    }
    expect((await verify(merchant)).body.data).toMatchObject({ verified: true, first_broken: null });
  });

  it('detects a ledger row removed by hand (the next entry, or the chain head, no longer matches)', async () => {
    const [debit] = (await api(merchant, 'GET', '/wallet/ledger?limit=1')).body.data as Array<{ id: string }>;
    const [row] = await query<Record<string, unknown>>(`SELECT * FROM ledger_entries WHERE id = $1`, [debit.id]);
    await asSuperuser([[`DELETE FROM ledger_entries WHERE id = $1`, [debit.id]]]);
    try {
      const broken = (await verify(merchant, '?currency=NGN')).body.data;
      expect(broken.verified).toBe(false);
      expect(['prev_hash_mismatch', 'chain_head_mismatch']).toContain(broken.first_broken.reason);
    } finally {
      const columns = Object.keys(row);
      await asSuperuser([
        [`INSERT INTO ledger_entries (${columns.join(', ')}) OVERRIDING SYSTEM VALUE VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`, columns.map((c) => row[c])],
      ]);
    }
    expect((await verify(merchant)).body.data.verified).toBe(true);
  });

  it('records which API request made each posting, and lists its entries for that request', async () => {
    const refund = await api(merchant, 'POST', '/refunds', { payment_reference: paidReferences[1], amount: 10 });
    expect(refund.status).toBe(201);
    const requestId = refund.headers.get('x-request-id') as string;
    const ledger = h.gateway.app.get(LedgerService, { strict: false });
    const ctx = { developerId: merchant.developerId, mode: 'test' as const };
    const entries = await ledger.entriesForRequest(ctx, requestId);
    expect(entries.map((e) => [e.entryType, e.amount.toString(), e.reference])).toEqual([['debit', '-10.00', refund.body.data.reference]]);
    expect(await ledger.entriesForRequest({ developerId: other.developerId, mode: 'test' }, requestId)).toEqual([]);
    // Every posting and event this file made went through an API request (the merchant's, or the
    // provider's callback racing the sandbox's verify), and says which.
    expect(await query(`SELECT id FROM ledger_postings WHERE developer_id = ANY ($1) AND request_id IS NULL`, [[merchant.developerId, other.developerId]])).toEqual([]);
    expect(await query(`SELECT id, name FROM events WHERE developer_id = ANY ($1) AND request_id IS NULL`, [[merchant.developerId, other.developerId]])).toEqual([]);
  });

  it.each([
    ['?currency=EUR', 'invalid_currency'],
    ['?currency=ngn', 'invalid_currency'],
    [`?currency=${'N'.repeat(17)}`, 'validation_error'],
    ['?limit=10', 'validation_error'],
    ['?currency=NGN&currency=USD', 'validation_error'],
  ])('refuses %s with 400 %s', async (query, code) => {
    const res = await verify(merchant, query);
    expect([res.status, res.body.success, res.body.code]).toEqual([400, false, code]);
  });

  it('needs wallet:read: 401 without a key, 403 insufficient_scope with another scope', async () => {
    expect((await http(h.gateway.baseUrl, 'GET', '/api/v1/wallet/ledger/verify')).status).toBe(401);
    const narrow = await merchant.issueKey({ scopes: ['customers:read'] });
    const refused = await verify(narrow);
    expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_scope']);
    expect((await verify(await merchant.issueKey({ scopes: ['wallet:read'] }))).body.data.verified).toBe(true);
  });

  it('the portal verifies the session account’s wallet in its mode, for any member', async () => {
    const admin: PortalClient = (await signedInPlatformUser(h.gateway)).client;
    const account = await provisionAccount(h.gateway, admin);
    const key = (await account.owner.post('/api/portal/keys', { body: { name: 'payments' } })).body.data.secret as string;
    await paidPayment(h.gateway, { key }, { amount: 3000, email: buyer() });
    const viewer = (await account.addMember('viewer')).client;
    const entries = await entriesOf(account);
    expect(entries).toBeGreaterThanOrEqual(4);
    for (const client of [account.owner, viewer]) {
      const res = await client.get('/api/portal/wallet/ledger/verify');
      expect([res.status, res.body.data]).toEqual([200, { verified: true, currency: null, entries_checked: entries, chains: 16, first_broken: null }]);
    }
    expect((await account.owner.get('/api/portal/wallet/ledger/verify?currency=XYZ')).body.code).toBe('invalid_currency');
  });
});
