import { requestFingerprint } from '@gateway/domain/idempotency';
import { randomUUID } from 'node:crypto';
import { query } from './support/db';
import { type TestGateway, startGateway } from './support/gateway';
import { http, type HttpResult } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';

const CUSTOMERS = '/api/v1/customers';

describe('idempotency keys', () => {
  let gateway: TestGateway;
  let merchant: TestMerchant;
  beforeAll(async () => {
    // Generous rate limits: the concurrency test sends bursts on one key.
    gateway = await startGateway({ RATE_LIMIT_TEST_PER_SECOND: '10000', RATE_LIMIT_LIVE_PER_SECOND: '10000', RATE_LIMIT_IP_PER_SECOND: '10000' });
    merchant = await createMerchant(gateway, { identityVerified: true });
  });
  afterAll(() => gateway.close());

  const newKey = () => `key-${randomUUID()}`;
  const newEmail = () => `c-${randomUUID().slice(0, 8)}@example.com`;

  function createCustomer(body: unknown, headers: Record<string, string> = {}, token = merchant.key, path = CUSTOMERS): Promise<HttpResult> {
    return http(gateway.baseUrl, 'POST', path, { token, body, headers });
  }

  async function customersWithEmail(email: string, developerId = merchant.developerId): Promise<number> {
    const [row] = await query<{ count: number }>('SELECT count(*)::int AS count FROM customers WHERE developer_id = $1 AND lower(email) = lower($2)', [developerId, email]);
    return row.count;
  }

  function expectFresh(res: HttpResult, status: number): void {
    expect(res.status).toBe(status);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  }

  function expectReplayOf(res: HttpResult, original: HttpResult): void {
    expect(res.status).toBe(original.status);
    expect(res.text).toBe(original.text);
    expect(res.headers.get('idempotent-replayed')).toBe('true');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  }

  it('replays the first response byte for byte with Idempotent-Replayed: true and creates the customer once', async () => {
    const key = newKey();
    const email = newEmail();
    const first = await createCustomer({ email, name: 'Ada', metadata: { tier: 'gold', ids: [3, 1, 2] } }, { 'Idempotency-Key': key });
    expectFresh(first, 201);

    // Same request re-serialised with another key order and spacing, and via the trailing-slash path.
    const retry = await http(gateway.baseUrl, 'POST', `${CUSTOMERS}/`, {
      token: merchant.key,
      headers: { 'Idempotency-Key': key },
      rawBody: `{ "metadata": { "ids": [3, 1, 2], "tier": "gold" }, "name": "Ada", "email": "${email}" }`,
    });

    expectReplayOf(retry, first);
    expect(retry.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await customersWithEmail(email)).toBe(1);
    const [row] = await query<{ status: string; response_status: number; response_body: string }>(
      'SELECT status, response_status, response_body FROM idempotency_keys WHERE developer_id = $1 AND key = $2',
      [merchant.developerId, key],
    );
    // Stored sealed (AES-256-GCM): responses can carry secrets that must only be kept encrypted.
    expect(row).toMatchObject({ status: 'completed', response_status: 201 });
    expect(row.response_body).toMatch(/^v1\./);
    expect(row.response_body).not.toContain(email);
  });

  it('accepts X-Idempotency-Key as the same key as Idempotency-Key', async () => {
    const key = newKey();
    const body = { email: newEmail() };
    const first = await createCustomer(body, { 'X-Idempotency-Key': key });
    expectFresh(first, 201);
    expectReplayOf(await createCustomer(body, { 'Idempotency-Key': key }), first);
    expectReplayOf(await createCustomer(body, { 'Idempotency-Key': key, 'X-Idempotency-Key': key }), first);
  });

  it('refuses both headers with different values with 400 validation_error, before anything runs', async () => {
    const body = { email: newEmail() };
    const res = await createCustomer(body, { 'Idempotency-Key': newKey(), 'X-Idempotency-Key': newKey() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'validation_error', errors: { 'Idempotency-Key': [expect.any(String)], 'X-Idempotency-Key': [expect.any(String)] } });
    expect(await customersWithEmail(body.email)).toBe(0);
  });

  it('refuses the same key with a different body with 422 idempotency_key_reused', async () => {
    const key = newKey();
    const firstEmail = newEmail();
    const otherEmail = newEmail();
    expectFresh(await createCustomer({ email: firstEmail }, { 'Idempotency-Key': key }), 201);

    const reused = await createCustomer({ email: otherEmail }, { 'Idempotency-Key': key });

    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ success: false, code: 'idempotency_key_reused', message: expect.any(String) });
    expect(await customersWithEmail(otherEmail)).toBe(0);
  });

  it('runs 20 concurrent requests with one key once: one creates, the others replay it or are told it is in progress', async () => {
    const key = newKey();
    const body = { email: newEmail() };
    const results = await Promise.all(Array.from({ length: 20 }, () => createCustomer(body, { 'Idempotency-Key': key })));

    const created = results.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
    const replayed = results.filter((r) => r.headers.get('idempotent-replayed') === 'true');
    const inProgress = results.filter((r) => r.status === 409);
    expect(created).toHaveLength(1);
    expect(replayed.length + inProgress.length).toBe(19);
    for (const r of replayed) expectReplayOf(r, created[0]);
    for (const r of inProgress) expect(r.body.code).toBe('idempotency_key_in_progress');
    expect(await customersWithEmail(body.email)).toBe(1);
    // Once the first has finished, every retry is a replay.
    expectReplayOf(await createCustomer(body, { 'Idempotency-Key': key }), created[0]);
  });

  it('keeps keys apart per developer and per mode: the same key and body run independently', async () => {
    const key = newKey();
    const body = { email: newEmail() };
    const other = await createMerchant(gateway);
    const live = await merchant.issueKey({ mode: 'live' });

    const mine = await createCustomer(body, { 'Idempotency-Key': key });
    const theirs = await createCustomer(body, { 'Idempotency-Key': key }, other.key);
    const mineLive = await createCustomer(body, { 'Idempotency-Key': key }, live.key);

    for (const res of [mine, theirs, mineLive]) expectFresh(res, 201);
    expect(new Set([mine, theirs, mineLive].map((r) => r.body.data.reference)).size).toBe(3);
    expect(await customersWithEmail(body.email, other.developerId)).toBe(1);
  });

  it('scopes a key to method and route: the stored row names the route pattern, not the URL', async () => {
    const key = newKey();
    await createCustomer({ email: newEmail() }, { 'Idempotency-Key': key }, merchant.key, `${CUSTOMERS}/`);
    const rows = await query<{ method: string; route: string }>('SELECT method, route FROM idempotency_keys WHERE developer_id = $1 AND key = $2', [merchant.developerId, key]);
    expect(rows).toEqual([{ method: 'POST', route: CUSTOMERS }]);
  });

  it('does not let a validation refusal consume the key: the corrected retry runs', async () => {
    const key = newKey();
    const refused = await createCustomer({ email: 'not-an-email' }, { 'Idempotency-Key': key });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('validation_error');

    const email = newEmail();
    const corrected = await createCustomer({ email }, { 'Idempotency-Key': key });
    expectFresh(corrected, 201);
    expect(await customersWithEmail(email)).toBe(1);
    expectReplayOf(await createCustomer({ email }, { 'Idempotency-Key': key }), corrected);
  });

  it('does not let a refusal by the guards consume the key (here: missing scope)', async () => {
    const key = newKey();
    const email = newEmail();
    const readOnly = await merchant.issueKey({ scopes: ['customers:read'] });
    const refused = await createCustomer({ email }, { 'Idempotency-Key': key }, readOnly.key);
    expect(refused.status).toBe(403);

    expectFresh(await createCustomer({ email }, { 'Idempotency-Key': key }), 201);
  });

  it('stores a business refusal (409 customer_exists) and replays it', async () => {
    const email = newEmail();
    expectFresh(await createCustomer({ email }), 201);
    const key = newKey();

    const conflict = await createCustomer({ email }, { 'Idempotency-Key': key });
    expectFresh(conflict, 409);
    expect(conflict.body.code).toBe('customer_exists');

    expectReplayOf(await createCustomer({ email }, { 'Idempotency-Key': key }), conflict);
  });

  it.each([
    ['longer than 255 characters', 'k'.repeat(256)],
    ['holding a tab', 'a\tb'],
    ['holding a non-ASCII character', 'cl\u00e9'],
  ])('refuses a key %s with 400 validation_error', async (_label, key) => {
    const body = { email: newEmail() };
    const res = await createCustomer(body, { 'Idempotency-Key': key });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', errors: { 'Idempotency-Key': [expect.any(String)] } });
    expect(await customersWithEmail(body.email)).toBe(0);
  });

  it('accepts a key of exactly 255 printable characters', async () => {
    const key = `${randomUUID()}${'~'.repeat(255 - 36)}`;
    const body = { email: newEmail() };
    const first = await createCustomer(body, { 'Idempotency-Key': key });
    expectFresh(first, 201);
    expectReplayOf(await createCustomer(body, { 'Idempotency-Key': key }), first);
  });

  describe('a key held by an unfinished request', () => {
    async function holdKey(key: string, body: unknown, claimedAt: Date): Promise<void> {
      const hash = requestFingerprint({ params: {}, query: {}, body });
      await query(
        `INSERT INTO idempotency_keys (developer_id, mode, method, route, key, request_hash, status, claim_token, claimed_at)
         VALUES ($1, 'test', 'POST', $2, $3, $4, 'in_progress', gen_random_uuid(), $5)`,
        [merchant.developerId, CUSTOMERS, key, hash, claimedAt],
      );
    }

    it('answers 409 idempotency_key_in_progress while the claim is fresh', async () => {
      const key = newKey();
      const body = { email: newEmail() };
      await holdKey(key, body, gateway.clock.now());

      const res = await createCustomer(body, { 'Idempotency-Key': key });

      expect(res.status).toBe(409);
      expect(res.body).toEqual({ success: false, code: 'idempotency_key_in_progress', message: expect.any(String) });
      expect(await customersWithEmail(body.email)).toBe(0);
    });

    it('lets a retry take over a claim older than the lock timeout (the first request crashed)', async () => {
      const key = newKey();
      const body = { email: newEmail() };
      await holdKey(key, body, new Date(gateway.clock.now().getTime() - 61_000));

      const res = await createCustomer(body, { 'Idempotency-Key': key });

      expectFresh(res, 201);
      expect(await customersWithEmail(body.email)).toBe(1);
      expectReplayOf(await createCustomer(body, { 'Idempotency-Key': key }), res);
    });
  });

  it('documents the header on mutating API-key operations in the OpenAPI document', async () => {
    const doc = await http(gateway.baseUrl, 'GET', '/api/docs.json');
    const post = doc.body.paths[CUSTOMERS].post;
    const get = doc.body.paths[CUSTOMERS].get;
    expect(post.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]));
    expect(post.responses['422'].description).toContain('idempotency_key_reused');
    expect(post.responses['409'].description).toContain('customer_exists');
    expect(post.responses['409'].description).toContain('idempotency_key_in_progress');
    expect(JSON.stringify(get.parameters ?? [])).not.toContain('Idempotency-Key');
    expect(doc.body.info.description).toContain('**Idempotency.**');
  });
});
