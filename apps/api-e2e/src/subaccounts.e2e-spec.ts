import { type TestGateway, startGateway } from './support/gateway';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';

describe('sub-accounts', () => {
  let gateway: TestGateway;
  let merchant: TestMerchant;
  let nextAccount = 0;
  beforeAll(async () => {
    gateway = await startGateway();
    merchant = await createMerchant(gateway, { identityVerified: true });
  });
  afterAll(() => gateway.close());

  /** A fresh NUBAN per call, so tests do not collide on the one-per-bank-account rule. */
  const nuban = () => String(7_000_000_000 + nextAccount++);
  const valid = (overrides: Record<string, unknown> = {}) => ({ business_name: 'Vendor Ltd', bank_code: '058', account_number: nuban(), ...overrides });
  const post = (body: unknown, key = merchant.key) => http(gateway.baseUrl, 'POST', '/api/v1/subaccounts/', { token: key, body });
  const get = (path: string, key = merchant.key) => http(gateway.baseUrl, 'GET', `/api/v1/subaccounts${path}`, { token: key });

  it('creates a sub-account and answers 201 with its code and only the last 4 digits of the account number', async () => {
    const body = { business_name: 'Acme Supplies', bank_code: '044', account_number: '0123456789', account_name: 'ACME SUPPLIES LTD', description: 'Fabric vendor', metadata: { vendor_id: 42 } };
    const res = await post(body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        code: expect.stringMatching(/^ACCT_[a-z0-9]{10}$/),
        business_name: 'Acme Supplies',
        bank_code: '044',
        account_number_last4: '6789',
        account_name: 'ACME SUPPLIES LTD',
        description: 'Fabric vendor',
        active: true,
        metadata: { vendor_id: 42 },
        created_at: gateway.clock.now().toISOString(),
      },
    });
    expect(res.text).not.toContain('0123456789');
    expect(res.body.data).not.toHaveProperty('account_number');

    const fetched = await get(`/${res.body.data.code}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.data).toEqual(res.body.data);
    expect(fetched.text).not.toContain('0123456789');
    const listed = await get('');
    expect(listed.text).not.toContain('0123456789');
  });

  it('fills optional fields with null and metadata with {}', async () => {
    const res = await post({ business_name: 'Minimal', bank_code: '50515', account_number: '1111111111' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ bank_code: '50515', account_name: null, description: null, metadata: {}, account_number_last4: '1111' });
  });

  it.each([
    [{ business_name: undefined }, 'business_name'],
    [{ business_name: '' }, 'business_name'],
    [{ bank_code: undefined }, 'bank_code'],
    [{ bank_code: '58' }, 'bank_code'],
    [{ bank_code: '1234567' }, 'bank_code'],
    [{ bank_code: 'GTB' }, 'bank_code'],
    [{ bank_code: 58 }, 'bank_code'],
    [{ account_number: undefined }, 'account_number'],
    [{ account_number: '123456789' }, 'account_number'],
    [{ account_number: '12345678901' }, 'account_number'],
    [{ account_number: '12345abcde' }, 'account_number'],
    [{ account_number: 1234567890 }, 'account_number'],
    [{ account_name: '' }, 'account_name'],
    [{ description: 'x'.repeat(501) }, 'description'],
    [{ metadata: 'x' }, 'metadata'],
    [{ active: false }, 'active'],
    [{ share: 0.2 }, 'share'],
  ])('refuses %j with 400 validation_error naming %s', async (overrides, field) => {
    const res = await post(valid(overrides));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'validation_error' });
    expect(res.body.errors[field]).toEqual(expect.arrayContaining([expect.any(String)]));
  });

  it('never echoes a refused account number in the error', async () => {
    const res = await post(valid({ account_number: '98765432101' }));
    expect(res.status).toBe(400);
    expect(res.text).not.toContain('98765432101');
  });

  it('refuses the same bank account twice for one developer and mode with 409 subaccount_exists', async () => {
    const first = await post(valid({ account_number: '2222222222' }));
    const again = await post(valid({ account_number: '2222222222', business_name: 'Another name' }));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ success: false, code: 'subaccount_exists', message: expect.stringContaining(first.body.data.code) });
    expect(again.text).not.toContain('2222222222');
    // Same account number at another bank is another bank account.
    expect((await post(valid({ account_number: '2222222222', bank_code: '057' }))).status).toBe(201);
  });

  it('keeps modes and developers apart: the same bank account may be registered in each', async () => {
    const live = await merchant.issueKey({ mode: 'live' });
    const other = await createMerchant(gateway);
    const inTest = await post(valid({ account_number: '3333333333' }));
    const inLive = await post(valid({ account_number: '3333333333' }), live.key);
    const elsewhere = await post(valid({ account_number: '3333333333' }), other.key);
    expect([inTest.status, inLive.status, elsewhere.status]).toEqual([201, 201, 201]);
  });

  it("answers the other mode's and another developer's sub-account exactly like a missing one", async () => {
    const live = await merchant.issueKey({ mode: 'live' });
    const other = await createMerchant(gateway);
    const mine = await post(valid());
    const missing = await get('/ACCT_0000000000', other.key);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, code: 'subaccount_not_found', message: expect.any(String) });
    for (const key of [other.key, live.key]) {
      const res = await get(`/${mine.body.data.code}/`, key);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
    const otherList = await get('', other.key);
    expect(otherList.body.data).toEqual([]);
    const liveList = await get('', live.key);
    expect(liveList.body.data.map((s: { code: string }) => s.code)).not.toContain(mine.body.data.code);
  });

  it('lists newest first with a cursor, without gap or duplicate while sub-accounts are added', async () => {
    const m = await createMerchant(gateway);
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      codes.push((await post(valid({ business_name: `page-${i}` }), m.key)).body.data.code);
      gateway.clock.advance(1);
    }
    // Two rows with the same created_at: the id breaks the tie, so paging still neither skips nor repeats.
    codes.push((await post(valid({ business_name: 'page-5' }), m.key)).body.data.code);
    codes.push((await post(valid({ business_name: 'page-6' }), m.key)).body.data.code);
    gateway.clock.advance(1);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(cursor ? `?limit=2&cursor=${cursor}` : '?limit=2', m.key);
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ limit: 2, has_more: expect.any(Boolean), next_cursor: res.body.meta.has_more ? expect.any(String) : null });
      seen.push(...res.body.data.map((s: { code: string }) => s.code));
      cursor = res.body.meta.next_cursor;
      if (pages === 0) await post(valid({ business_name: 'added-while-paging' }), m.key); // newer than every page
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(new Set(codes));
    expect(seen.slice(0, 2).sort()).toEqual(codes.slice(5).sort());
    expect(seen.slice(2)).toEqual(codes.slice(0, 5).reverse());

    const all = await get('', m.key);
    expect(all.body.meta).toEqual({ limit: 20, has_more: false, next_cursor: null });
    expect(all.body.data).toHaveLength(8);
  });

  it('validates limit and cursor', async () => {
    for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?cursor=garbage', '?unknown=1']) {
      const bad = await get(query);
      expect([query, bad.status, bad.body.code]).toEqual([query, 400, 'validation_error']);
    }
  });

  it('needs subaccounts:write to create and subaccounts:read to read', async () => {
    const readOnly = await createMerchant(gateway, { scopes: ['subaccounts:read'] });
    const writeOnly = await createMerchant(gateway, { scopes: ['subaccounts:write'] });
    const refusedCreate = await post(valid(), readOnly.key);
    expect(refusedCreate.status).toBe(403);
    expect(refusedCreate.body).toMatchObject({ code: 'insufficient_scope', message: expect.stringContaining('subaccounts:write') });
    const created = await post(valid(), writeOnly.key);
    expect(created.status).toBe(201);
    for (const path of ['', `/${created.body.data.code}`]) {
      const refused = await get(path, writeOnly.key);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'insufficient_scope', message: expect.stringContaining('subaccounts:read') });
    }
    expect((await get('', readOnly.key)).status).toBe(200);
  });

  it('refuses requests without a key with 401', async () => {
    const res = await http(gateway.baseUrl, 'GET', '/api/v1/subaccounts');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('authentication_failed');
  });
});
