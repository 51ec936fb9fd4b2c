import { ApiKeysService } from '@gateway/domain/api-keys';
import { authenticator } from 'otplib';
import { http } from './support/http';
import { buyer, initializePayment, paidPayment, type PaymentsHarness, startPaymentsHarness } from './support/payments';
import { type PortalAccount, type PortalClient, provisionAccount, signedInPlatformUser } from './support/portal-client';

/** Exact decimal sum of 2-decimal amounts, in integer minor units (never a float): ["1.10", "1.20"] → 2.3. */
function exactSum(amounts: Array<string | number>): number {
  const minor = amounts.reduce<bigint>((total, amount) => {
    const [whole, fraction = ''] = String(amount).split('.');
    return total + BigInt(whole + fraction.padEnd(2, '0'));
  }, 0n);
  const text = minor.toString().padStart(3, '0');
  return Number(`${text.slice(0, -2)}.${text.slice(-2)}`);
}

interface Volume {
  currency: string;
  volume: number;
  count: number;
}

/**
 * GET /api/portal/dashboard: the figures are exact sums (amounts whose float sum is off, e.g.
 * 1.10 + 1.20), counted in UTC days and months, for the session's account and mode only. The clock
 * starts at 23:50 UTC on 31 October, so the payments straddle a day and a month boundary.
 */
describe('portal dashboard', () => {
  let h: PaymentsHarness;
  let admin: PortalClient;
  let a: PortalAccount;
  let b: PortalAccount;
  let key: string;
  const pay = async (amount: number, currency: string, outcome = 'success') => {
    const result = await paidPayment(h.gateway, { key }, { amount, currency, email: buyer() }, outcome);
    if (result.status !== 200) throw new Error(`pay: ${result.status} ${result.text}`);
    h.gateway.clock.advance(1_000); // "newest first" is then unambiguous
    return result.body.data.reference as string;
  };

  beforeAll(async () => {
    h = await startPaymentsHarness();
    h.gateway.clock.set(new Date('2026-10-31T23:50:00.000Z'));
    admin = (await signedInPlatformUser(h.gateway)).client;
    a = await provisionAccount(h.gateway, admin, { identityVerified: true });
    b = await provisionAccount(h.gateway, admin);
    key = (await a.owner.post('/api/portal/keys', { body: { name: 'dashboard' } })).body.data.secret as string;

    // 31 October (UTC): two successes in USD whose float sum is 2.3000000000000003, one decline.
    await pay(1.1, 'USD');
    await pay(1.2, 'USD');
    await pay(150, 'NGN', 'declined');
    h.gateway.clock.advance(20 * 60_000); // 00:10 UTC on 1 November: another day and month
    // 1 November: 100.10 + 100.20 (a float sum gives 200.29999999999998), 2.35 USD, a decline, one still pending.
    await pay(100.1, 'NGN');
    await pay(100.2, 'NGN');
    await pay(2.35, 'USD');
    await pay(200, 'NGN', 'declined');
    expect((await initializePayment(h.gateway, { key }, { amount: 300, email: buyer() })).status).toBe(201);
  });
  afterAll(() => h?.close());

  it('sums today’s and this month’s successful payments exactly, per currency, in UTC', async () => {
    const result = await a.owner.get('/api/portal/dashboard');
    expect(result.status).toBe(200);
    const dashboard = result.body.data;
    const asOf = h.gateway.clock.now().toISOString();
    expect(asOf).toMatch(/^2026-11-01T00:10/);
    expect(dashboard).toMatchObject({ mode: 'test', as_of: asOf });
    const today = {
      from: '2026-11-01T00:00:00.000Z',
      to: asOf,
      volumes: [
        { currency: 'NGN', volume: exactSum(['100.10', '100.20']), count: 2 },
        { currency: 'USD', volume: exactSum(['2.35']), count: 1 },
      ],
      succeeded: 3,
      unsuccessful: 1,
      success_rate: 0.75,
    };
    expect(dashboard.today).toEqual(today);
    expect(dashboard.today.volumes[0].volume).toBe(200.3);
    // The month began at 00:00 UTC today: October's payments are not in it.
    expect(dashboard.this_month).toEqual({ ...today, from: '2026-11-01T00:00:00.000Z' });
    expect(dashboard.daily_volume).toEqual([
      { date: '2026-10-31', currency: 'USD', volume: exactSum(['1.10', '1.20']), count: 2 },
      { date: '2026-11-01', currency: 'NGN', volume: exactSum(['100.10', '100.20']), count: 2 },
      { date: '2026-11-01', currency: 'USD', volume: 2.35, count: 1 },
    ]);
    expect(dashboard.daily_volume[0].volume).toBe(2.3);
  });

  it('agrees with the payments list, the wallet and the newest payments', async () => {
    const dashboard = (await a.owner.get('/api/portal/dashboard')).body.data;
    // Independently: today's successful payments from the list, summed here in minor units.
    const listed = (await a.owner.get('/api/portal/payments?status=success&from=2026-11-01T00:00:00.000Z&limit=100')).body.data as Array<{ amount: number; currency: string }>;
    const byCurrency = new Map<string, number[]>();
    for (const p of listed) byCurrency.set(p.currency, [...(byCurrency.get(p.currency) ?? []), p.amount]);
    expect(dashboard.today.volumes).toEqual(
      [...byCurrency.entries()].sort(([x], [y]) => x.localeCompare(y)).map(([currency, amounts]): Volume => ({ currency, volume: exactSum(amounts), count: amounts.length })),
    );
    expect(dashboard.balances).toEqual((await a.owner.get('/api/portal/wallet/balance')).body.data);
    const newest = (await a.owner.get('/api/portal/payments?limit=5')).body.data.map((p: { reference: string }) => p.reference);
    expect(dashboard.recent_payments.map((p: { reference: string }) => p.reference)).toEqual(newest);
    expect(dashboard.recent_payments[0]).toMatchObject({ status: 'pending', amount: 300, currency: 'NGN' });
  });

  it('never shows one account another’s figures', async () => {
    const other = (await b.owner.get('/api/portal/dashboard')).body.data;
    const empty = { volumes: [], succeeded: 0, unsuccessful: 0, success_rate: null };
    expect(other.today).toMatchObject(empty);
    expect(other.this_month).toMatchObject(empty);
    expect(other.daily_volume).toEqual([]);
    expect(other.recent_payments).toEqual([]);
    expect(other.balances.every((x: { total_balance: number }) => x.total_balance === 0)).toBe(true);
  });

  it('keeps live and test figures apart', async () => {
    // A live payment of account A (live key issued directly; the provider simulator completes it).
    const { secret: liveKey } = await h.gateway.app.get(ApiKeysService, { strict: false }).issue({ developerId: a.developerId, mode: 'live', kind: 'secret' });
    const init = await http(h.gateway.baseUrl, 'POST', '/api/v1/payments/initialize', { token: liveKey, body: { amount: 5000.55, email: buyer() } });
    await http(h.sim.url() as string, 'POST', `/sim/transactions/${init.body.data.reference}/complete`, { token: h.secrets.live, body: {} });
    expect((await http(h.gateway.baseUrl, 'POST', '/api/v1/payments/verify', { token: liveKey, body: { reference: init.body.data.reference } })).body.data.status).toBe('success');

    const test = (await a.owner.get('/api/portal/dashboard')).body.data;
    expect(test.today.succeeded).toBe(3);
    expect(test.recent_payments.map((p: { reference: string }) => p.reference)).not.toContain(init.body.data.reference);

    const code = (secret: string) => authenticator.clone({ epoch: h.gateway.clock.now().getTime() }).generate(secret);
    const secret: string = (await a.owner.post('/api/portal/me/totp/enroll')).body.data.secret;
    expect((await a.owner.post('/api/portal/me/totp/confirm', { body: { code: code(secret) } })).status).toBe(200);
    h.gateway.clock.advance(60_000); // the confirming code's step is spent
    expect((await a.owner.put('/api/portal/me/mode', { body: { mode: 'live' }, totp: code(secret) })).status).toBe(200);

    const live = (await a.owner.get('/api/portal/dashboard')).body.data;
    expect(live.mode).toBe('live');
    expect(live.today).toMatchObject({ volumes: [{ currency: 'NGN', volume: 5000.55, count: 1 }], succeeded: 1, unsuccessful: 0, success_rate: 1 });
    expect(live.daily_volume).toEqual([{ date: '2026-11-01', currency: 'NGN', volume: 5000.55, count: 1 }]);
    expect(live.recent_payments.map((p: { reference: string }) => p.reference)).toEqual([init.body.data.reference]);
  });

  it('refuses without a session', async () => {
    expect((await fetch(`${h.gateway.baseUrl}/api/portal/dashboard`)).status).toBe(401);
  });
});
