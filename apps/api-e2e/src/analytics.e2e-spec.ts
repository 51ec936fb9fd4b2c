import { ApiKeysService } from '@gateway/domain/api-keys';
import { http, type HttpResult } from './support/http';
import { createMerchant } from './support/merchants';
import { initializePayment, type PaymentsHarness, startPaymentsHarness } from './support/payments';
import { type PortalAccount, type PortalClient, provisionAccount, signedInPlatformUser } from './support/portal-client';
import { waitFor } from './support/wait';

const DAY_MS = 86_400_000;
const dayFromToday = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

/** Exact sum of 2-decimal amounts in integer minor units (never a float), back to a JSON number: [1.1, 1.2] → 2.3. */
function exactSum(amounts: number[]): number {
  return fromMinor(amounts.reduce((total, amount) => total + toMinor(amount), 0n));
}
function toMinor(amount: number): bigint {
  const [whole, fraction = ''] = String(amount).split('.');
  return BigInt(whole + fraction.padEnd(2, '0'));
}
function fromMinor(minor: bigint): number {
  const negative = minor < 0n;
  const text = (negative ? -minor : minor).toString().padStart(3, '0');
  return Number(`${negative ? '-' : ''}${text.slice(0, -2)}.${text.slice(-2)}`);
}

interface LedgerEntry {
  type: string;
  amount: number;
  direction: 'credit' | 'debit';
  balance_type: string;
  currency: string;
  reference: string;
  description: string;
}
interface PaymentRow {
  reference: string;
  status: string;
  currency: string;
  amount: number;
  email: string;
  customer_reference: string;
}

const CURRENCIES = ['NGN', 'USD', 'GBP', 'KES'];
const ZERO_FIGURES = {
  count: 0,
  succeeded: 0,
  failed: 0,
  abandoned: 0,
  success_rate: null,
  volume: 0,
  fees: 0,
  platform_fees: 0,
  provider_fees: 0,
  refunds: 0,
  refunds_count: 0,
  net: 0,
};

/**
 * GET /api/v1/analytics/summary and /timeseries (and the portal's and staff's): every figure of a
 * seeded account — successes in NGN and USD with the platform's and the provider's fees, a decline,
 * a late success after a decline, an abandonment, a partial and a full refund — equals the sums
 * computed here from the wallet ledger and the payments list, exact to the cent.
 */
describe('analytics', () => {
  let h: PaymentsHarness;
  let admin: PortalClient;
  let account: PortalAccount;
  let key: string;
  const from = dayFromToday(-3);
  const to = dayFromToday(3);
  const range = `from=${from}&to=${to}`;
  const api = (token: string, method: string, path: string, body?: unknown): Promise<HttpResult> => http(h.gateway.baseUrl, method, `/api/v1${path}`, { token, body });

  async function pay(amount: number, currency: string, email: string, outcomes: string[]): Promise<PaymentRow> {
    const init = await initializePayment(h.gateway, { key }, { amount, currency, email });
    expect([init.status, init.text]).toEqual([201, expect.any(String)]);
    let payment = init.body.data as PaymentRow;
    for (const outcome of outcomes) {
      const completed = await api(key, 'POST', `/sandbox/payments/${payment.reference}/complete`, { outcome });
      expect([completed.status, completed.text]).toEqual([200, expect.any(String)]);
      payment = completed.body.data;
    }
    return payment;
  }

  async function refund(reference: string, amount?: number): Promise<void> {
    const created = await api(key, 'POST', '/refunds', { payment_reference: reference, ...(amount === undefined ? {} : { amount }), reason: 'analytics' });
    expect([created.status, created.text]).toEqual([201, expect.any(String)]);
    const refundReference = created.body.data.reference as string;
    await waitFor(async () => (await api(key, 'GET', `/refunds/${refundReference}`)).body.data.status === 'processed', { timeoutMs: 20_000, what: `refund ${refundReference} processed` });
  }

  async function all<T>(path: string): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | null = null;
    do {
      const page: HttpResult = await api(key, 'GET', `${path}${path.includes('?') ? '&' : '?'}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      items.push(...page.body.data);
      cursor = page.body.meta.next_cursor;
    } while (cursor);
    return items;
  }

  /** What the summary must say for one currency, from the ledger (money) and the payments list (outcomes, customers). */
  function expectedFigures(currency: string, ledger: LedgerEntry[], payments: PaymentRow[]) {
    const entries = ledger.filter((e) => e.currency === currency && e.balance_type === 'available');
    const volume = exactSum(entries.filter((e) => e.type === 'credit' && e.description === 'Payment received').map((e) => e.amount));
    const platform = exactSum(entries.filter((e) => e.type === 'fee' && e.description === 'Platform fee').map((e) => e.amount));
    const provider = exactSum(entries.filter((e) => e.type === 'fee' && e.description === 'Provider fee').map((e) => e.amount));
    const refundDebits = entries.filter((e) => e.reference.startsWith('RFD_') && e.direction === 'debit');
    const refundReversals = entries.filter((e) => e.reference.startsWith('RFD_') && e.direction === 'credit');
    const refunds = fromMinor(toMinor(exactSum(refundDebits.map((e) => e.amount))) - toMinor(exactSum(refundReversals.map((e) => e.amount))));
    const ofCurrency = payments.filter((p) => p.currency === currency);
    const succeeded = ofCurrency.filter((p) => p.status === 'success').length;
    const failed = ofCurrency.filter((p) => p.status === 'failed').length;
    const abandoned = ofCurrency.filter((p) => p.status === 'abandoned').length;
    const count = succeeded + failed + abandoned;
    const fees = exactSum([platform, provider]);
    return {
      currency,
      count,
      succeeded,
      failed,
      abandoned,
      success_rate: count === 0 ? null : Math.round((succeeded * 10_000) / count) / 10_000,
      volume,
      fees,
      platform_fees: platform,
      provider_fees: provider,
      refunds,
      refunds_count: new Set(refundDebits.map((e) => e.reference)).size,
      net: fromMinor(toMinor(volume) - toMinor(fees) - toMinor(refunds)),
    };
  }

  function expectedTopCustomers(currency: string, payments: PaymentRow[]) {
    const byCustomer = new Map<string, { customer_reference: string; email: string; amounts: number[] }>();
    for (const p of payments.filter((q) => q.currency === currency && q.status === 'success')) {
      const entry = byCustomer.get(p.customer_reference) ?? { customer_reference: p.customer_reference, email: p.email, amounts: [] };
      entry.amounts.push(p.amount);
      byCustomer.set(p.customer_reference, entry);
    }
    return [...byCustomer.values()]
      .map((c) => ({ customer_reference: c.customer_reference, email: c.email, count: c.amounts.length, volume: exactSum(c.amounts) }))
      .sort((a, b) => Number(toMinor(b.volume) - toMinor(a.volume)) || b.count - a.count)
      .slice(0, 5);
  }

  beforeAll(async () => {
    // A database of its own: the platform-wide figures are then this file's accounts' alone.
    h = await startPaymentsHarness({ PLATFORM_FEES: 'NGN:10,USD:0.50' }, { ownDatabase: true });
    const staff = await signedInPlatformUser(h.gateway);
    admin = staff.client;
    account = await provisionAccount(h.gateway, admin, { identityVerified: true });
    key = (await account.owner.post('/api/portal/keys', { body: { name: 'analytics' } })).body.data.secret as string;

    // Left unpaid: abandoned by the scan below (run as of 24 h after it), before the others exist.
    const unpaid = await pay(300, 'NGN', 'never-pays@example.com', []);
    h.gateway.clock.advance(2 * 3_600_000);
    // Successes in NGN (the provider takes 1.5 % + 100 above 2,500) and USD (3.9 %); ada pays three times.
    const big = await pay(2600.55, 'NGN', 'ada@example.com', ['success']);
    await pay(1500.1, 'NGN', 'ada@example.com', ['success']);
    await pay(100.2, 'NGN', 'ada@example.com', ['success']);
    await pay(999.99, 'NGN', 'bob@example.com', ['success']);
    await pay(120.3, 'NGN', 'cy@example.com', ['success']);
    await pay(101.01, 'NGN', 'dee@example.com', ['success']);
    await pay(150, 'NGN', 'eve@example.com', ['success']);
    const usd = await pay(25.35, 'USD', 'ada@example.com', ['success']);
    await pay(10.1, 'USD', 'bob@example.com', ['success']);
    // A decline that stays declined, and one paid later on the same checkout (a late success).
    await pay(700, 'NGN', 'declined@example.com', ['declined']);
    const late = await pay(450.45, 'NGN', 'late@example.com', ['declined', 'success']);
    expect(late.status).toBe('success');
    // A partial refund and a full one.
    await refund(big.reference, 500.05);
    await refund(usd.reference);

    const createdAt = (await api(key, 'GET', `/payments/${unpaid.reference}`)).body.data.created_at as string;
    const scan = await api(key, 'POST', '/sandbox/scans/abandoned-payments/run', { as_of: new Date(new Date(createdAt).getTime() + DAY_MS + 60_000).toISOString() });
    expect([scan.status, scan.body.data?.affected]).toEqual([200, 1]);
    // The clock moved two hours on: the portal sessions opened before have lapsed.
    expect((await account.owner.login(account.ownerEmail)).status).toBe(200);
    expect((await admin.login(staff.email)).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('the summary equals the ledger and the payments list, currency by currency, exact to the cent', async () => {
    const [ledger, payments] = await Promise.all([all<LedgerEntry>('/wallet/ledger'), all<PaymentRow>('/payments')]);
    const summary = await api(key, 'GET', `/analytics/summary?${range}`);
    expect(summary.status).toBe(200);
    expect(summary.body.data).toEqual({
      mode: 'test',
      from,
      to,
      currencies: CURRENCIES.map((currency) => expectedFigures(currency, ledger, payments)),
    });
    // The seeded figures themselves, so the comparison cannot pass on empty data.
    const ngn = summary.body.data.currencies[0];
    expect([ngn.succeeded, ngn.failed, ngn.abandoned, ngn.count, ngn.success_rate, ngn.refunds_count, ngn.refunds]).toEqual([8, 1, 1, 10, 0.8, 1, 500.05]);
    expect(ngn.volume).toBe(exactSum([2600.55, 1500.1, 100.2, 999.99, 120.3, 101.01, 150, 450.45]));
    expect(ngn.platform_fees).toBe(80);
    expect(ngn.provider_fees).toBeGreaterThan(0);
    const usdFigures = summary.body.data.currencies[1];
    expect([usdFigures.succeeded, usdFigures.volume, usdFigures.platform_fees, usdFigures.refunds, usdFigures.refunds_count]).toEqual([2, 35.45, 1, 25.35, 1]);
  });

  it('top customers: ranked by successful volume in the range, per currency, as the payments list adds them up', async () => {
    const payments = await all<PaymentRow>('/payments');
    const top = await api(key, 'GET', `/analytics/top-customers?${range}`);
    expect(top.status).toBe(200);
    expect(top.body.data).toEqual({ mode: 'test', from, to, currencies: CURRENCIES.map((currency) => ({ currency, customers: expectedTopCustomers(currency, payments) })) });
    expect(top.body.data.currencies[0].customers[0]).toMatchObject({ email: 'ada@example.com', count: 3, volume: 4200.85 });
    const one = await api(key, 'GET', `/analytics/top-customers?${range}&currency=NGN&limit=1`);
    expect(one.body.data.currencies).toEqual([{ currency: 'NGN', customers: [top.body.data.currencies[0].customers[0]] }]);
    for (const limit of ['0', '21', 'x']) expect((await api(key, 'GET', `/analytics/top-customers?limit=${limit}`)).body.code).toBe('validation_error');
    const viaPortal = await account.owner.get(`/api/portal/analytics/top-customers?${range}`);
    expect([viaPortal.status, viaPortal.body.data]).toEqual([200, top.body.data]);
  });

  it('one currency: the same figures for that currency alone', async () => {
    const all = await api(key, 'GET', `/analytics/summary?${range}`);
    const usd = await api(key, 'GET', `/analytics/summary?${range}&currency=USD`);
    expect(usd.body.data.currencies).toEqual([all.body.data.currencies[1]]);
  });

  it('time series by day, week and month: every bucket present, and the buckets add up to the summary', async () => {
    const summary = (await api(key, 'GET', `/analytics/summary?${range}`)).body.data;
    for (const interval of ['day', 'week', 'month']) {
      const series = await api(key, 'GET', `/analytics/timeseries?${range}&interval=${interval}`);
      expect(series.status).toBe(200);
      expect(series.body.data).toMatchObject({ mode: 'test', from, to, interval });
      if (interval === 'day') expect(series.body.data.currencies[0].points.map((p: { start: string }) => p.start)).toEqual(Array.from({ length: 7 }, (_, i) => dayFromToday(i - 3)));
      for (const [i, currency] of series.body.data.currencies.entries()) {
        const points = currency.points as Array<Record<string, number>>;
        expect(points[0].start).toBe(from);
        expect(points[points.length - 1].end).toBe(to);
        const expected = summary.currencies[i];
        for (const measure of ['count', 'succeeded', 'failed', 'abandoned', 'refunds_count']) {
          expect([currency.currency, measure, points.reduce((n, p) => n + p[measure], 0)]).toEqual([expected.currency, measure, expected[measure]]);
        }
        for (const measure of ['volume', 'fees', 'platform_fees', 'provider_fees', 'refunds', 'net']) {
          expect([currency.currency, measure, fromMinor(points.reduce((n, p) => n + toMinor(p[measure]), 0n))]).toEqual([expected.currency, measure, expected[measure]]);
        }
      }
    }
  });

  it('another developer and the other mode see zeros', async () => {
    const other = await createMerchant(h.gateway);
    const live = await h.gateway.app.get(ApiKeysService, { strict: false }).issue({ developerId: account.developerId, mode: 'live', kind: 'secret' });
    for (const token of [other.key, live.secret]) {
      const summary = await api(token, 'GET', `/analytics/summary?${range}`);
      expect(summary.status).toBe(200);
      expect(summary.body.data.currencies).toEqual(CURRENCIES.map((currency) => ({ currency, ...ZERO_FIGURES })));
      const top = await api(token, 'GET', `/analytics/top-customers?${range}`);
      expect(top.body.data.currencies).toEqual(CURRENCIES.map((currency) => ({ currency, customers: [] })));
      const series = await api(token, 'GET', `/analytics/timeseries?${range}&interval=week`);
      expect(series.body.data.currencies.every((c: { points: Array<{ count: number; volume: number }> }) => c.points.every((p) => p.count === 0 && p.volume === 0))).toBe(true);
    }
  });

  it('a key without analytics:read is refused with insufficient_scope', async () => {
    const narrow = await h.gateway.app.get(ApiKeysService, { strict: false }).issue({ developerId: account.developerId, mode: 'test', kind: 'secret', scopes: ['payments:read'] });
    for (const path of ['/analytics/summary', '/analytics/timeseries', '/analytics/top-customers']) {
      const refused = await api(narrow.secret, 'GET', path);
      expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_scope']);
    }
  });

  it('bad dates, ranges, intervals and currencies are refused', async () => {
    const cases: Array<[string, number, string]> = [
      ['/analytics/timeseries?interval=year', 400, 'validation_error'],
      ['/analytics/summary?from=2026-02-30', 400, 'validation_error'],
      ['/analytics/summary?from=yesterday', 400, 'validation_error'],
      ['/analytics/summary?from=2026-11-02&to=2026-11-01', 400, 'validation_error'],
      ['/analytics/summary?from=2025-01-01&to=2026-01-02', 400, 'validation_error'],
      ['/analytics/summary?unknown=1', 400, 'validation_error'],
      ['/analytics/summary?currency=XYZ', 400, 'invalid_currency'],
    ];
    for (const [path, status, code] of cases) {
      const refused = await api(key, 'GET', path);
      expect([path, refused.status, refused.body.code]).toEqual([path, status, code]);
    }
    expect((await api(key, 'GET', '/analytics/summary?from=2024-01-01&to=2024-12-31')).status).toBe(200);
  });

  it('the portal answers the session account and mode as the API does; members of the account may read it', async () => {
    const viaApi = (await api(key, 'GET', `/analytics/summary?${range}`)).body.data;
    const viaPortal = await account.owner.get(`/api/portal/analytics/summary?${range}`);
    expect([viaPortal.status, viaPortal.body.data]).toEqual([200, viaApi]);
    const viewer = await account.addMember('viewer');
    const series = await viewer.client.get(`/api/portal/analytics/timeseries?${range}&interval=month`);
    expect([series.status, series.body.data]).toEqual([200, (await api(key, 'GET', `/analytics/timeseries?${range}&interval=month`)).body.data]);
  });

  it('staff read any account, or every account of a mode; members of an account are refused the staff routes', async () => {
    const viaApi = (await api(key, 'GET', `/analytics/summary?${range}`)).body.data;
    const one = await admin.get(`/api/portal/admin/analytics/summary?${range}&mode=test&developer_id=${account.developerId}`);
    expect([one.status, one.body.data]).toEqual([200, { ...viaApi, developer_id: account.developerId }]);
    // Every account of test mode: this database's only payments are this account's.
    const platform = await admin.get(`/api/portal/admin/analytics/summary?${range}&mode=test`);
    expect(platform.body.data).toEqual({ ...viaApi, developer_id: null });
    const liveSeries = await admin.get(`/api/portal/admin/analytics/timeseries?${range}&interval=week`);
    expect(liveSeries.status).toBe(200);
    expect(liveSeries.body.data).toMatchObject({ mode: 'live', developer_id: null, interval: 'week' });

    const secretary = (await signedInPlatformUser(h.gateway, 'financial_secretary')).client;
    // The overview counts every account's test payments of the gateway's last 30 days (its clock
    // was moved 2 h on above, so late in a UTC day its "today" is tomorrow), as the platform-wide
    // summary of that window does; read it between two equal summaries, so a payment of another
    // account settling meanwhile cannot skew it.
    const gatewayDay = (days: number) => new Date(h.gateway.clock.now().getTime() + days * DAY_MS).toISOString().slice(0, 10);
    const platformNgn = async () => {
      const summary = await admin.get(`/api/portal/admin/analytics/summary?from=${gatewayDay(-29)}&to=${gatewayDay(0)}&mode=test`);
      const c = summary.body.data.currencies.find((x: { currency: string }) => x.currency === 'NGN');
      return { currency: 'NGN', volume: c.volume, count: c.count, succeeded: c.succeeded, failed: c.failed, abandoned: c.abandoned };
    };
    let overview: HttpResult = await secretary.get('/api/portal/admin/overview');
    let expected = await platformNgn();
    for (let tries = 0; tries < 5; tries++) {
      const before = await platformNgn();
      overview = await secretary.get('/api/portal/admin/overview');
      expected = await platformNgn();
      if (JSON.stringify(before) === JSON.stringify(expected)) break;
    }
    expect(overview.status).toBe(200);
    const test = overview.body.data.modes.find((m: { mode: string }) => m.mode === 'test');
    expect(test.last_30_days.find((c: { currency: string }) => c.currency === 'NGN')).toEqual(expected);
    // This account's own payments are among them.
    const ownNgn = (await api(key, 'GET', `/analytics/summary?from=${gatewayDay(-29)}&to=${gatewayDay(0)}&currency=NGN`)).body.data.currencies[0];
    expect(expected.count).toBeGreaterThanOrEqual(ownNgn.count);
    expect(overview.body.data).toMatchObject({
      as_of: expect.any(String),
      settlements_pending_approval: [],
      api_errors_24h: { since: expect.any(String), requests: expect.any(Number), client_errors: expect.any(Number), server_errors: expect.any(Number) },
    });

    for (const path of [`/api/portal/admin/analytics/summary?${range}`, `/api/portal/admin/analytics/timeseries?${range}`, '/api/portal/admin/overview']) {
      const refused = await account.owner.get(path);
      expect([path, refused.status, refused.body.code]).toEqual([path, 403, 'insufficient_role']);
    }
  });
});
