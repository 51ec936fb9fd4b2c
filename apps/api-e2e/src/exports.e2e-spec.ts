import { EXPORT_COLUMNS, toCsvCells } from '@gateway/domain/exports';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { http, type HttpResult } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, paidPayment, schedulerEnvFor, startPaymentsHarness, type PaymentsHarness } from './support/payments';
import { PortalClient, provisionAccount, signedInPlatformUser } from './support/portal-client';
import { startScheduler, type SchedulerProcess } from './support/scheduler-process';
import { waitFor } from './support/wait';
import { parse } from 'csv-parse/sync';

const DAY = 86_400;
const BIG = 100_000;
/** Exports above this many rows e-mail their requester (small, so the test sees both sides). */
const EMAIL_THRESHOLD = 5;

/** RFC 4180 records, read by the csv-stringify project's own parser. */
const parseCsv = (text: string): string[][] => parse(text);

describe('exports', () => {
  let h: PaymentsHarness;
  let scheduler: SchedulerProcess;
  let exportsDir: string;
  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown): Promise<HttpResult> => http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body });
  const dayStart = (ms: number) => new Date(Math.floor(ms / (DAY * 1000)) * DAY * 1000).toISOString();
  /** Sixty days around today (UTC midnights): every object these tests make was created in it. */
  const range = { from: dayStart(Date.now() - 30 * DAY * 1000), to: dayStart(Date.now() + 30 * DAY * 1000) };
  const oneYear = range;

  /** Polls the export until `done` holds; returns every state seen on the way. */
  async function follow(m: Pick<TestMerchant, 'key'>, reference: string, done: (e: Record<string, unknown>) => boolean, timeoutMs = 120_000): Promise<Array<Record<string, unknown>>> {
    const seen: Array<Record<string, unknown>> = [];
    await waitFor(
      async () => {
        const got = await api(m, 'GET', `/exports/${reference}`);
        seen.push(got.body.data);
        return done(got.body.data);
      },
      { timeoutMs, what: `export ${reference}` },
    );
    return seen;
  }

  const completed = (e: Record<string, unknown>) => e['status'] === 'completed' || e['status'] === 'failed';

  /** Every item of a merchant API list, paged with limit=100 as a client would. */
  async function listAll(m: Pick<TestMerchant, 'key'>, path: string): Promise<Array<Record<string, unknown>>> {
    const items: Array<Record<string, unknown>> = [];
    let cursor: string | null = null;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const page = await api(m, 'GET', `${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      items.push(...page.body.data);
      cursor = page.body.meta.next_cursor;
    } while (cursor);
    return items;
  }

  async function exportAndDownload(m: Pick<TestMerchant, 'key'>, body: Record<string, unknown>): Promise<{ exported: Record<string, unknown>; rows: string[][]; header: string[] }> {
    const created = await api(m, 'POST', '/exports', body);
    expect([created.status, created.body.data?.status]).toEqual([202, 'queued']);
    const seen = await follow(m, created.body.data.reference, completed);
    const exported = seen[seen.length - 1];
    expect(exported['status']).toBe('completed');
    const file = await api(m, 'GET', `/exports/${created.body.data.reference}/download`);
    expect(file.status).toBe(200);
    const [header, ...rows] = parseCsv(file.text);
    return { exported, rows, header };
  }

  beforeAll(async () => {
    exportsDir = await mkdtemp(join(tmpdir(), 'gateway-exports-'));
    const env = { EXPORTS_DIR: exportsDir, RATE_LIMIT_TEST_PER_SECOND: '100000', RATE_LIMIT_LIVE_PER_SECOND: '100000', RATE_LIMIT_IP_PER_SECOND: '100000' };
    // A database of its own: its scheduler expires exports on advanced test clocks, and seeds 100,000 rows.
    h = await startPaymentsHarness(env, { ownDatabase: true });
    scheduler = await startScheduler(
      schedulerEnvFor(h, { EXPORTS_DIR: exportsDir, EXPORT_EXPIRY_SCAN_INTERVAL_SECONDS: '1', EXPORT_EMAIL_THRESHOLD_ROWS: String(EMAIL_THRESHOLD), TEST_CLOCK_SCAN_INTERVAL_SECONDS: '1' }),
    );
  }, 120_000);
  afterAll(async () => {
    await scheduler?.stop();
    await h?.close();
    await rm(exportsDir, { recursive: true, force: true });
  });

  it(
    'exports 100,000 payments that match the list row for row, showing progress while it runs, and e-mails the account owner',
    async () => {
      const m = await createMerchant(h.gateway);
      const customer = await api(m, 'POST', '/customers', { email: buyer(), name: 'Seeded Buyer' });
      expect(customer.status).toBe(201);
      const db = new Client({ connectionString: h.databaseUrl });
      await db.connect();
      try {
        const [{ id: customerId }] = (await db.query(`SELECT id FROM customers WHERE reference = $1`, [customer.body.data.reference])).rows;
        // Amounts with every kind of cents (0.01 … 999,999.99); pairs of payments share a created_at (the id breaks the tie);
        // metadata with commas, quotes and a formula-like value.
        await db.query(
          `INSERT INTO payments (developer_id, mode, reference, status, customer_id, customer_reference, email, amount, currency, callback_url, metadata, gateway_response, channel, created_at, updated_at)
           SELECT $1, 'test', 'PAY_seed_' || lpad(g::text, 7, '0'), (ARRAY['pending', 'failed', 'abandoned'])[1 + g % 3], $2, $3, $4,
                  ((g::bigint * 7919) % 99999999 + 1)::numeric / 100, (ARRAY['NGN', 'USD', 'GBP', 'KES'])[1 + g % 4],
                  CASE WHEN g % 2 = 0 THEN 'https://shop.example.com/done?o=' || g END,
                  jsonb_build_object('order', 'ORD-' || g, 'note', CASE WHEN g % 1000 = 0 THEN '=HYPERLINK("x")' ELSE 'ok, "quoted"' END),
                  CASE WHEN g % 3 = 1 THEN 'Declined' END, 'card',
                  date_trunc('second', now()) - make_interval(secs => g / 2), now()
             FROM generate_series(1, ${BIG}) AS g`,
          [m.developerId, customerId, customer.body.data.reference, customer.body.data.email],
        );
      } finally {
        await db.end();
      }

      const created = await api(m, 'POST', '/exports', { type: 'payments', ...range });
      expect(created.status).toBe(202);
      const reference: string = created.body.data.reference;
      expect(created.body.data).toMatchObject({ type: 'payments', status: 'queued', rows_done: 0, rows_total: null, progress: 0, download_url: null, filters: { ...range, currency: null, status: null } });
      expect(reference).toMatch(/^exp_[0-9a-f]{20}$/);
      const early = await api(m, 'GET', `/exports/${reference}/download`);
      expect([early.status, early.body.code]).toEqual([409, 'export_not_ready']);

      const seen = await follow(m, reference, completed, 240_000);
      const running = seen.filter((e) => e['status'] === 'running' && (e['rows_done'] as number) > 0 && (e['rows_done'] as number) < BIG);
      expect(running.length).toBeGreaterThan(0);
      expect(running.every((e) => e['rows_total'] === BIG && (e['progress'] as number) < 100)).toBe(true);
      const done = seen[seen.length - 1];
      expect(done).toMatchObject({ status: 'completed', rows_done: BIG, rows_total: BIG, progress: 100, error: null });
      expect(done['download_url']).toMatch(new RegExp(`^https?://[^/]+/api/v1/exports/${reference}/download$`));

      const file = await api(m, 'GET', `/exports/${reference}/download`);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(file.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="payments_${range.from.slice(0, 10)}_${range.to.slice(0, 10)}_${reference}\\.csv"$`));
      expect(Number(file.headers.get('content-length'))).toBe(Buffer.byteLength(file.text));
      expect(Number(file.headers.get('content-length'))).toBe(done['file_size']);
      const [header, ...rows] = parseCsv(file.text);
      expect(header).toEqual(EXPORT_COLUMNS.payments.map((c) => c.name));

      const listed = await listAll(m, '/payments');
      expect(listed.length).toBe(BIG);
      expect(rows.length).toBe(BIG);
      const amountAt = header.indexOf('amount');
      for (let i = 0; i < BIG; i++) {
        // Row i of the file is item i of the list, every field as the list shows it.
        if (JSON.stringify(rows[i]) !== JSON.stringify(toCsvCells(listed[i], EXPORT_COLUMNS.payments))) {
          expect([i, rows[i]]).toEqual([i, toCsvCells(listed[i], EXPORT_COLUMNS.payments)]);
        }
        // Amounts are exact decimal text: the JSON number with exactly two decimals.
        if (!/^\d+\.\d{2}$/.test(rows[i][amountAt]) || Number(rows[i][amountAt]) !== listed[i]['amount']) {
          expect([i, rows[i][amountAt]]).toEqual([i, String(listed[i]['amount'])]);
        }
      }
      expect(rows.some((r) => r[header.indexOf('metadata')].includes('=HYPERLINK'))).toBe(true);

      // Above the threshold: the account owner (the key's account) is e-mailed a link to the portal's Reports page.
      const mailbox = await http(h.gateway.baseUrl, 'GET', `/api/portal/dev/mailbox?to=${encodeURIComponent(m.email)}`);
      const mail = (mailbox.body.data as Array<{ subject: string; body: string }>).find((x) => x.subject.includes('payments export'));
      expect(mail?.body).toContain(`#/reports?export=${reference}`);
      expect(mail?.body).toContain('100,000 rows');
    },
    600_000,
  );

  it('exports every other type with the fields and order of its list, and mails only above the threshold', async () => {
    const m = await createMerchant(h.gateway);
    const paid: string[] = [];
    for (const amount of [1500.5, 2000, 3333.33]) {
      const payment = await paidPayment(h.gateway, m, { amount, email: buyer(), metadata: { cart: '=SUM(A1)' } });
      expect(payment.body.data.status).toBe('success');
      paid.push(payment.body.data.reference);
    }
    expect((await api(m, 'POST', '/refunds', { payment_reference: paid[0], amount: 100.1, reason: '+44 called' })).status).toBe(201);
    expect((await api(m, 'POST', `/sandbox/payments/${paid[1]}/dispute`)).status).toBe(201);
    const customers = await listAll(m, '/customers');
    const invoice = await api(m, 'POST', '/invoices', {
      customer_reference: customers[0]['reference'],
      due_date: '2030-12-31',
      currency: 'NGN',
      line_items: [{ description: '-Consulting, "November"', quantity: 2.5, unit_price: 333.33 }],
    });
    expect(invoice.status).toBe(201);

    const lists: Array<[string, string]> = [
      ['refunds', '/refunds'],
      ['ledger', '/wallet/ledger'],
      ['customers', '/customers'],
      ['disputes', '/disputes'],
      ['invoices', '/invoices'],
      ['payments', '/payments'],
    ];
    for (const [type, path] of lists) {
      const { exported, rows, header } = await exportAndDownload(m, { type, ...oneYear });
      const columns = EXPORT_COLUMNS[type as keyof typeof EXPORT_COLUMNS];
      const listed = await listAll(m, path);
      expect(listed.length).toBeGreaterThan(0);
      expect([type, header]).toEqual([type, columns.map((c) => c.name)]);
      expect([type, rows]).toEqual([type, listed.map((item) => toCsvCells(item, columns))]);
      expect([type, exported['rows_total'], exported['rows_done']]).toEqual([type, listed.length, listed.length]);
    }
    // Formula-like text is neutralised; amounts are exact text.
    const refunds = await exportAndDownload(m, { type: 'refunds', ...oneYear });
    expect(refunds.rows[0][refunds.header.indexOf('reason')]).toBe("'+44 called");
    expect(refunds.rows[0][refunds.header.indexOf('amount')]).toBe('100.10');
    // Filters: one status, one currency.
    const successNgn = await exportAndDownload(m, { type: 'payments', ...oneYear, status: 'success', currency: 'NGN' });
    expect(successNgn.rows.length).toBe(3);
    expect((await exportAndDownload(m, { type: 'payments', ...oneYear, status: 'failed' })).rows).toEqual([]);
    // Transfers and settlements are live-mode objects: a test-mode export of them is the header alone.
    for (const type of ['transfers', 'settlements']) {
      const { rows, header } = await exportAndDownload(m, { type, ...oneYear });
      expect([type, rows, header]).toEqual([type, [], EXPORT_COLUMNS[type as keyof typeof EXPORT_COLUMNS].map((c) => c.name)]);
    }
    const mailbox = await http(h.gateway.baseUrl, 'GET', `/api/portal/dev/mailbox?to=${encodeURIComponent(m.email)}`);
    // Only the ledger export (12 entries) is above the threshold of 5 rows; the others (at most 3 rows) mail no one.
    expect((mailbox.body.data as Array<{ subject: string }>).filter((x) => x.subject.includes('export')).map((x) => x.subject)).toEqual(['Your ledger export is ready']);
  }, 240_000);

  it("is its owner's and its mode's only: another account and the other mode get 404 on get and download", async () => {
    const m = await createMerchant(h.gateway, { identityVerified: true });
    const other = await createMerchant(h.gateway, { identityVerified: true });
    const { exported } = await exportAndDownload(m, { type: 'customers', ...oneYear });
    const live = await m.issueKey({ mode: 'live' });
    for (const key of [other.key, live.key]) {
      for (const path of [`/exports/${exported['reference']}`, `/exports/${exported['reference']}/download`]) {
        const refused = await api({ key }, 'GET', path);
        expect([path, refused.status, refused.body.code]).toEqual([path, 404, 'export_not_found']);
      }
      expect((await api({ key }, 'GET', '/exports')).body.data).toEqual([]);
    }
    const listed = await api(m, 'GET', '/exports');
    expect(listed.body.data.map((e: { reference: string }) => e.reference)).toEqual([exported['reference']]);
    expect(listed.body.meta).toEqual({ next_cursor: null, has_more: false, limit: 20 });
    const readOnly = await m.issueKey({ scopes: ['exports:read'] });
    const refused = await api({ key: readOnly.key }, 'POST', '/exports', { type: 'customers', ...oneYear });
    expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_scope']);
    expect((await api({ key: readOnly.key }, 'GET', `/exports/${exported['reference']}/download`)).status).toBe(200);
  }, 120_000);

  it('expires after 7 days on an advanced test clock: the file is deleted, the record stays, the download answers 410', async () => {
    const m = await createMerchant(h.gateway);
    const { exported } = await exportAndDownload(m, { type: 'customers', ...oneYear });
    const reference = exported['reference'] as string;
    const file = join(exportsDir, m.developerId, 'test', `${reference}.csv`);
    expect(existsSync(file)).toBe(true);
    const completedAt = Date.parse(exported['completed_at'] as string);
    expect(Date.parse(exported['expires_at'] as string)).toBe(completedAt + 7 * DAY * 1000);

    expect((await api(m, 'POST', '/sandbox/clock/advance', { seconds: 6 * DAY })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2_500)); // two expiry scans
    expect((await api(m, 'GET', `/exports/${reference}`)).body.data.status).toBe('completed');
    expect(existsSync(file)).toBe(true);

    expect((await api(m, 'POST', '/sandbox/clock/advance', { seconds: DAY + 120 })).status).toBe(200);
    await follow(m, reference, (e) => e['status'] === 'expired', 30_000);
    expect(existsSync(file)).toBe(false);
    const after = await api(m, 'GET', `/exports/${reference}`);
    expect(after.body.data).toMatchObject({ status: 'expired', download_url: null, rows_done: exported['rows_done'], expires_at: exported['expires_at'] });
    const gone = await api(m, 'GET', `/exports/${reference}/download`);
    expect([gone.status, gone.body.code]).toEqual([410, 'export_expired']);
  }, 120_000);

  it('refuses bad requests with 400 validation_error naming the field', async () => {
    const m = await createMerchant(h.gateway);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'orders', ...oneYear }, 'type'],
      [{ type: 'payments', from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, 'to'],
      [{ type: 'payments', from: '2025-01-01T00:00:00Z', to: '2026-01-03T00:00:00Z' }, 'to'],
      [{ type: 'payments', from: 'yesterday', to: '2026-01-01T00:00:00Z' }, 'from'],
      [{ type: 'customers', ...oneYear, status: 'success' }, 'status'],
      [{ type: 'payments', ...oneYear, status: 'processed' }, 'status'],
      [{ type: 'customers', ...oneYear, currency: 'NGN' }, 'currency'],
    ];
    for (const [body, field] of cases) {
      const refused = await api(m, 'POST', '/exports', body);
      expect([body, refused.status, refused.body.code, Object.keys(refused.body.errors ?? {})]).toEqual([body, 400, 'validation_error', [field]]);
    }
    const unknownField = await api(m, 'POST', '/exports', { type: 'payments', ...oneYear, format: 'xlsx' });
    expect([unknownField.status, unknownField.body.code]).toEqual([400, 'validation_error']);
    const currency = await api(m, 'POST', '/exports', { type: 'payments', ...oneYear, currency: 'EUR' });
    expect([currency.status, currency.body.code]).toEqual([400, 'invalid_currency']);
    expect((await api(m, 'GET', '/exports/exp_0000000000')).body.code).toBe('export_not_found');
  });

  it("works the same from the portal, where a viewer may export and the member who asked is the one e-mailed", async () => {
    const admin = await signedInPlatformUser(h.gateway);
    const account = await provisionAccount(h.gateway, admin.client);
    const viewer = await account.addMember('viewer');
    const portal: PortalClient = viewer.client;
    const created = await portal.post('/api/portal/exports', { body: { type: 'customers', ...oneYear } });
    expect([created.status, created.body.data?.status]).toEqual([202, 'queued']);
    const reference = created.body.data.reference as string;
    await waitFor(async () => (await portal.get(`/api/portal/exports/${reference}`)).body.data.status === 'completed', { what: 'portal export' });
    const got = (await portal.get(`/api/portal/exports/${reference}`)).body.data;
    expect(got.download_url).toMatch(new RegExp(`/api/portal/exports/${reference}/download$`));
    const file = await portal.get(`/api/portal/exports/${reference}/download`);
    expect([file.status, file.text.split('\n')[0]]).toEqual([200, EXPORT_COLUMNS.customers.map((c) => c.name).join(',')]);
    expect((await portal.get('/api/portal/exports')).body.data.map((e: { reference: string }) => e.reference)).toEqual([reference]);
    // Another account's owner sees nothing of it.
    const stranger = await provisionAccount(h.gateway, admin.client);
    expect((await stranger.owner.get(`/api/portal/exports/${reference}/download`)).status).toBe(404);
  }, 120_000);
});
