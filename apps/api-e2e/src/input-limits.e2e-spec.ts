import { randomBytes, randomUUID } from 'node:crypto';
import { ApiKeysService } from '@gateway/domain/api-keys';
import { type TestGateway, startGateway } from './support/gateway';
import { http, type HttpResult } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { type PortalAccount, type PortalClient, provisionAccount, signedInPlatformUser } from './support/portal-client';

/** The documented nesting limit (docs/api.md, OpenAPI "Bodies"): the body itself is level 1. */
const MAX_JSON_DEPTH = 32;

/** `{"a": … {"a": 1} … }`: `depth` nested objects, the outermost one included. */
function nestedObject(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
}

/** A cursor as the lists encode theirs, with fields of our choosing (base64url of `field|field`). */
const forgedCursor = (...fields: string[]) => Buffer.from(fields.join('|'), 'utf8').toString('base64url');

const expectCursorRefused = (res: HttpResult) => expect([res.status, res.body?.code, Object.keys(res.body?.errors ?? {})]).toEqual([400, 'validation_error', ['cursor']]);

/** Requests no single one of which may hold the event loop, whatever is sent. */
describe('input limits', () => {
  let gateway: TestGateway;
  let merchant: TestMerchant;
  const api = (method: string, path: string, options: { body?: unknown; rawBody?: string } = {}) => http(gateway.baseUrl, method, `/api/v1${path}`, { token: merchant.key, ...options });

  beforeAll(async () => {
    gateway = await startGateway({ REQUEST_LOG_FLUSH_INTERVAL_MS: '50' });
    merchant = await createMerchant(gateway);
  });
  afterAll(() => gateway.close());

  describe('arrays in bodies', () => {

    it('refuses a 10,000-item bulk body on its item count alone, before any item is validated', async () => {
      // Every item is invalid: had any been validated, its error would be listed. (How little CPU
      // the refusal costs is a benchmark's business, not a test's: tools/bench/oversized-bodies.)
      const body = JSON.stringify({ items: Array.from({ length: 10_000 }, () => ({ type: 'initialize', amount: 'lots', email: 'not-an-email' })) });
      const res = await api('POST', '/payments/bulk', { rawBody: body });
      expect([res.status, res.body.code, res.body.errors]).toEqual([400, 'validation_error', { items: ['items must contain no more than 1000 elements'] }]);
    });

    it('refuses too many items in any array before looking at them: splits, webhook events, key scopes', async () => {
      const splits = Array.from({ length: 51 }, () => ({ subaccount: 'SUB_x', share: 'not a number' }));
      const init = await api('POST', '/payments/initialize', { body: { amount: 1000, email: 'a@example.com', splits } });
      expect([init.status, init.body.code, init.body.errors]).toEqual([400, 'validation_error', { splits: [expect.stringMatching(/50/)] }]);
      const hook = await api('POST', '/webhooks', { body: { url: 'https://example.com/hook', events: Array.from({ length: 1000 }, () => 'payment.success') } });
      expect([hook.status, hook.body.code, Object.keys(hook.body.errors)]).toEqual([400, 'validation_error', ['events']]);
    });
  });

  describe('JSON nesting', () => {
    const customer = (depth: number) => api('POST', '/customers', { body: { email: `nested-${randomBytes(4).toString('hex')}@example.com`, metadata: nestedObject(depth - 1) } });

    it(`accepts a body nested ${MAX_JSON_DEPTH} levels deep and refuses ${MAX_JSON_DEPTH + 1} with validation_error`, async () => {
      const accepted = await customer(MAX_JSON_DEPTH);
      expect(accepted.status).toBe(201);
      const refused = await customer(MAX_JSON_DEPTH + 1);
      expect([refused.status, refused.body.code, refused.body.errors]).toEqual([400, 'validation_error', { body: [`must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`] }]);
    });

    it('states the limit in the API document', async () => {
      const document = await http(gateway.baseUrl, 'GET', '/api/docs.json');
      expect(document.body.info.description).toContain(`nest at most ${MAX_JSON_DEPTH} levels deep`);
    });

    it('refuses 5,000 levels of objects or arrays (not 500), with strings full of brackets not counted', async () => {
      for (const rawBody of [`{"email":"a@example.com","metadata":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`, `{"email":"a@example.com","metadata":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`]) {
        const res = await api('POST', '/customers', { rawBody });
        expect([res.status, res.body.code]).toEqual([400, 'validation_error']);
      }
      const brackets = await api('POST', '/customers', { body: { email: `brackets-${randomBytes(4).toString('hex')}@example.com`, metadata: { note: '{['.repeat(100), quoted: '"\\{' } } });
      expect(brackets.status).toBe(201);
    });
  });

  describe('path parameters', () => {
    it.each([['/payments/%00'], ['/payments/PAY_%00x'], ['/customers/%00'], ['/refunds/%00'], ['/webhooks/%00'], ['/payments/bulk/%00']])('refuses NUL in %s with 400 validation_error naming the parameter', async (path) => {
      const res = await api('GET', path);
      expect([res.status, res.body.code]).toEqual([400, 'validation_error']);
      expect(Object.keys(res.body.errors)).toHaveLength(1);
    });
  });

  describe('forged cursors', () => {
    const uuid = randomUUID();
    const forged: Array<[string, string]> = [
      ['a date before the range PostgreSQL stores', forgedCursor('-271821-04-20T00:00:00.000Z', uuid)],
      ['a date past year 9999', forgedCursor('+275760-09-13T00:00:00.000Z', uuid)],
      ['a day that does not exist', forgedCursor('2025-02-30T00:00:00.000Z', uuid)],
      ['a malformed uuid', forgedCursor('2025-01-01T00:00:00.000Z', '------------------------------------')],
      ['a uuid with non-hex digits', forgedCursor('2025-01-01T00:00:00.000Z', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz')],
      ['a field too many', forgedCursor('2025-01-01T00:00:00.000Z', uuid, uuid)],
    ];

    it.each(forged)('refuses a payments cursor with %s: 400 validation_error naming cursor', async (_label, cursor) => {
      expectCursorRefused(await api('GET', `/payments?cursor=${cursor}`));
    });

    it.each([
      ['a sequence past the bigint range', Buffer.from('seq:9999999999999999999').toString('base64url')],
      ['a sequence past the bigint range', forgedCursor('9999999999999999999')],
      ['a negative sequence', forgedCursor('-1')],
      ['a payments cursor', forgedCursor('2025-01-01T00:00:00.000Z', uuid)],
    ])('refuses a ledger cursor with %s: 400 validation_error naming cursor', async (_label, cursor) => {
      expectCursorRefused(await api('GET', `/wallet/ledger?cursor=${cursor}`));
    });

    describe('request logs (portal)', () => {
      let account: PortalAccount;
      let admin: PortalClient;
      beforeAll(async () => {
        admin = (await signedInPlatformUser(gateway)).client;
        account = await provisionAccount(gateway, admin);
      });

      it.each([
        ...forged,
        ['a month that does not exist (old format)', Buffer.from(JSON.stringify(['2025-13-01T00:00:00.000000Z', uuid])).toString('base64url')],
        ['an hour that does not exist (old format)', Buffer.from(JSON.stringify(['2025-01-01T24:00:00.000000Z', uuid])).toString('base64url')],
      ])('refuses a request-log cursor with %s: 400 validation_error naming cursor', async (_label, cursor) => {
        expectCursorRefused(await account.owner.get(`/api/portal/request-logs?cursor=${cursor}`));
      });

      it('still pages with the cursors it issues', async () => {
        const { secret } = await gateway.app.get(ApiKeysService, { strict: false }).issue({ developerId: account.developerId, mode: 'test', kind: 'secret' });
        for (let i = 0; i < 3; i++) await http(gateway.baseUrl, 'GET', '/api/v1/customers', { token: secret });
        const seen: string[] = [];
        await waitFor(async () => (await account.owner.get('/api/portal/request-logs?limit=100')).body.data.length >= 3);
        let cursor: string | null = null;
        do {
          const page: HttpResult = await account.owner.get(`/api/portal/request-logs?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
          expect(page.status).toBe(200);
          seen.push(...page.body.data.map((entry: { request_id: string }) => entry.request_id));
          cursor = page.body.meta.next_cursor;
        } while (cursor);
        expect(new Set(seen).size).toBe(3);
        expect(seen).toHaveLength(3);
      });
    });
  });

  describe('amounts', () => {
    it.each([[1e-7], [1e21]])('refuses %p on every merchant endpoint that takes an amount with 400 validation_error naming it', async (amount) => {
      const requests: Array<[string, string, Record<string, unknown>]> = [
        ['POST', '/payments/initialize', { amount, email: 'a@example.com' }],
        ['POST', '/payments/charge', { amount, email: 'a@example.com', authorization_code: 'AUTH_unknown' }],
        ['POST', '/payments/bulk', { items: [{ type: 'initialize', amount, email: 'a@example.com' }] }],
        ['POST', '/payment-intents', { amount, email: 'a@example.com', capture_method: 'manual' }],
        ['POST', '/payment-intents/PI-unknown/capture', { amount }],
        ['POST', '/refunds', { payment_reference: 'PAY_unknown', amount }],
      ];
      for (const [method, path, body] of requests) {
        const res = await api(method, path, { body });
        expect([path, res.status, res.body.code]).toEqual([path, 400, 'validation_error']);
        expect([path, Object.keys(res.body.errors ?? {}).some((field) => field.endsWith('amount'))]).toEqual([path, true]);
      }
    });
  });

  describe('fee override amounts', () => {
    let admin: PortalClient;
    let account: PortalAccount;
    beforeAll(async () => {
      admin = (await signedInPlatformUser(gateway)).client;
      account = await provisionAccount(gateway, admin);
    });

    it.each([[1e-7], [1e21], [1e15], [-0.5]])('refuses %p with 400 validation_error naming amount', async (amount) => {
      const res = await admin.put(`/api/portal/admin/developers/${account.developerId}/fees/NGN`, { body: { amount } });
      expect([res.status, res.body.code, Object.keys(res.body.errors ?? {})]).toEqual([400, 'validation_error', ['amount']]);
    });
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
