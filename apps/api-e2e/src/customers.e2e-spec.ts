import { type TestGateway, startGateway } from './support/gateway';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';

describe('customers', () => {
  let gateway: TestGateway;
  let merchant: TestMerchant;
  beforeAll(async () => {
    gateway = await startGateway();
    merchant = await createMerchant(gateway, { identityVerified: true });
  });
  afterAll(() => gateway.close());

  const post = (body: unknown, key = merchant.key) => http(gateway.baseUrl, 'POST', '/api/v1/customers/', { token: key, body });

  it('creates a customer and returns it in the success envelope', async () => {
    const res = await post({ email: 'jane@example.com', name: 'Jane Doe', phone: '+2348012345678', metadata: { tier: 'gold' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        reference: expect.stringMatching(/^CUS_[0-9a-f]{16}$/),
        email: 'jane@example.com',
        name: 'Jane Doe',
        phone: '+2348012345678',
        metadata: { tier: 'gold' },
        created_at: expect.any(String),
      },
    });
  });

  it('refuses text no column can hold (NUL, a lone surrogate) as a field error, and keeps any other text exactly', async () => {
    const raw = (text: string) => http(gateway.baseUrl, 'POST', '/api/v1/customers/', { token: merchant.key, rawBody: text });
    const nul = await raw('{"email":"nul@example.com","metadata":{"notes":["ok","a\\u0000b"]}}');
    expect(nul.status).toBe(400);
    expect(nul.body).toEqual({ success: false, code: 'validation_error', message: expect.any(String), errors: { 'metadata.notes.1': [expect.stringContaining('NUL')] } });
    const loneKey = await raw('{"email":"lone@example.com","metadata":{"\\ud800":1}}');
    expect(loneKey.status).toBe(400);
    expect(loneKey.body.errors).toEqual({ 'metadata.\ud800': [expect.stringContaining('surrogate')] });
    const loneName = await raw('{"email":"lone@example.com","name":"x\\udc00"}');
    expect(loneName.body.errors).toEqual({ name: [expect.any(String)] });

    const text = { emoji: '😀 \\u0000 as text', '€': 'ünïcödé', quote: '"\\' };
    const ok = await post({ email: 'unicode@example.com', name: 'Zoë 😀', metadata: text });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ name: 'Zoë 😀', metadata: text });
  });

  it('refuses a duplicate e-mail in the same mode with 409 customer_exists, case-insensitively', async () => {
    await post({ email: 'dupe@example.com' });
    const res = await post({ email: 'DUPE@example.com' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, code: 'customer_exists', message: expect.stringContaining('DUPE@example.com') });
  });

  it('keeps test and live customers apart: the same e-mail may exist once in each mode', async () => {
    const live = await merchant.issueKey({ mode: 'live' });
    await post({ email: 'both-modes@example.com' });
    const inLive = await post({ email: 'both-modes@example.com' }, live.key);
    expect(inLive.status).toBe(201);
    const fromTest = await http(gateway.baseUrl, 'GET', `/api/v1/customers/${inLive.body.data.reference}`, { token: merchant.key });
    expect(fromTest.status).toBe(404);
    expect(fromTest.body.code).toBe('customer_not_found');
  });

  it("answers another developer's customer exactly like a missing one", async () => {
    const other = await createMerchant(gateway);
    const created = await post({ email: 'private@example.com' });
    const theirs = await http(gateway.baseUrl, 'GET', `/api/v1/customers/${created.body.data.reference}/`, { token: other.key });
    const missing = await http(gateway.baseUrl, 'GET', '/api/v1/customers/CUS_0000000000000000', { token: other.key });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(missing.body);
  });

  it.each([
    [{}, 'email'],
    [{ email: 'not-an-email' }, 'email'],
    [{ email: 'a@example.com', phone: 'call me' }, 'phone'],
    [{ email: 'a@example.com', metadata: 'x' }, 'metadata'],
    [{ email: 'a@example.com', name: '' }, 'name'],
    [{ email: 'a@example.com', role: 'admin' }, 'role'],
  ])('refuses %j with 400 validation_error naming %s', async (body, field) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.errors[field]).toEqual(expect.arrayContaining([expect.any(String)]));
  });

  it('refuses a JSON array or string body with validation_error', async () => {
    for (const rawBody of ['[1,2]', '"text"']) {
      const res = await http(gateway.baseUrl, 'POST', '/api/v1/customers', { token: merchant.key, rawBody });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_error');
    }
  });

  it('answers a non-JSON content type with 415 unsupported_media_type', async () => {
    const res = await http(gateway.baseUrl, 'POST', '/api/v1/customers', { token: merchant.key, rawBody: '<a/>', headers: { 'content-type': 'text/xml' } });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('lists newest first with a cursor and no gap or duplicate while customers are added', async () => {
    const m = await createMerchant(gateway);
    for (let i = 0; i < 5; i++) {
      await post({ email: `page-${i}@example.com` }, m.key);
      gateway.clock.advance(1);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
      const res = await http(gateway.baseUrl, 'GET', `/api/v1/customers${query}`, { token: m.key });
      expect(res.status).toBe(200);
      expect(res.body.meta.limit).toBe(2);
      seen.push(...res.body.data.map((c: { email: string }) => c.email));
      cursor = res.body.meta.next_cursor;
      if (pages === 0) {
        await post({ email: 'added-while-paging@example.com' }, m.key); // newer than every page: must not appear later
      }
      pages++;
    } while (cursor);
    expect(seen).toEqual(['page-4@example.com', 'page-3@example.com', 'page-2@example.com', 'page-1@example.com', 'page-0@example.com']);
  });

  it('filters the list by e-mail and validates limit and cursor', async () => {
    const res = await http(gateway.baseUrl, 'GET', '/api/v1/customers?email=jane@example.com', { token: merchant.key });
    expect(res.body.data.map((c: { email: string }) => c.email)).toEqual(['jane@example.com']);
    for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?cursor=garbage', '?unknown=1']) {
      const bad = await http(gateway.baseUrl, 'GET', `/api/v1/customers${query}`, { token: merchant.key });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('validation_error');
    }
  });
});
