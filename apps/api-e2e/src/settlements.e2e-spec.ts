import { ApiKeysService } from '@gateway/domain/api-keys';
import { AutoSettlementsService } from '@gateway/domain/settlements';
import { authenticator } from 'otplib';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { http } from './support/http';
import { runEntry } from './support/processes';
import { buyer, startPaymentsHarness, type PaymentsHarness } from './support/payments';
import { type PortalAccount, type PortalClient, provisionAccount, signedInPlatformUser } from './support/portal-client';

/** A 10-digit account number of its own per call. */
const accountNumber = () => `2${String(BigInt(`0x${randomBytes(6).toString('hex')}`) % 1_000_000_000n).padStart(9, '0')}`;

/**
 * Settlements over HTTP: the account's owner (portal, live mode, TOTP) registers a bank account and
 * asks for withdrawals; platform staff approve or reject them in the portal; the provider (the
 * simulator) pays them. Thresholds are small so every rule shows: TOTP above 3,000, two approvers
 * above 5,000, auto-settlements approved on their own up to 20,000, 1,000 kept in the wallet.
 */
describe('settlements', () => {
  let h: PaymentsHarness;
  let admin: PortalClient;
  let secretary: PortalClient;
  let secondAdmin: PortalClient;

  const now = () => h.gateway.clock.now();
  const code = (secret: string) => authenticator.clone({ epoch: now().getTime() }).generate(secret);
  const events = async (name: string, reference: string) =>
    ((await h.gateway.app.get(DataSource).query(`SELECT 1 FROM events WHERE name = $1 AND data->>'reference' = $2`, [name, reference])) as unknown[]).length;

  interface LiveAccount extends PortalAccount {
    secret: string;
    liveKey: string;
    balance(): Promise<{ available_balance: number; reserved_balance: number }>;
  }

  /**
   * An identity-verified account whose owner has TOTP and works in live mode, with a settlement
   * bank account and `funds` in the live wallet (the net of a paid live payment: 10,000 → 9,740).
   */
  async function liveAccount(): Promise<LiveAccount> {
    const account = await provisionAccount(h.gateway, admin, { identityVerified: true });
    const enrolled = await account.owner.post('/api/portal/me/totp/enroll');
    const secret: string = enrolled.body.data.secret;
    expect((await account.owner.post('/api/portal/me/totp/confirm', { body: { code: code(secret) } })).status).toBe(200);
    h.gateway.clock.advance(60_000); // the confirming code's step is spent
    expect((await account.owner.put('/api/portal/me/mode', { body: { mode: 'live' }, totp: code(secret) })).status).toBe(200);
    h.gateway.clock.advance(60_000);

    const { secret: liveKey } = await h.gateway.app.get(ApiKeysService, { strict: false }).issue({ developerId: account.developerId, mode: 'live', kind: 'secret' });
    const init = await http(h.gateway.baseUrl, 'POST', '/api/v1/payments/initialize', { token: liveKey, body: { amount: 10_000, email: buyer() } });
    await http(h.sim.url() as string, 'POST', `/sim/transactions/${init.body.data.reference}/complete`, { token: h.secrets.live, body: {} });
    expect((await http(h.gateway.baseUrl, 'POST', '/api/v1/payments/verify', { token: liveKey, body: { reference: init.body.data.reference } })).body.data.status).toBe('success');

    const set = await account.owner.put('/api/portal/settlements/account', { body: { bank_code: '058', account_number: accountNumber() }, totp: code(secret) });
    expect(set.status).toBe(200);
    h.gateway.clock.advance(60_000);
    const balance = async () => (await http(h.gateway.baseUrl, 'GET', '/api/v1/wallet/balance', { token: liveKey })).body.data;
    return { ...account, secret, liveKey, balance };
  }
  const request = (account: LiveAccount, amount: number, totp = false) =>
    account.owner.post('/api/portal/settlements', { body: { amount }, ...(totp ? { totp: code(account.secret) } : {}) });

  let secretaryEmail: string;

  beforeAll(async () => {
    // A database of its own: an auto-settlement run settles every account set to it.
    h = await startPaymentsHarness(
      {
        LARGE_WITHDRAWAL_THRESHOLD: 'NGN:3000',
        SETTLEMENT_TWO_PERSON_THRESHOLD: 'NGN:5000',
        AUTO_SETTLEMENT_AUTO_APPROVE_LIMIT: 'NGN:20000',
        AUTO_SETTLEMENT_MINIMUM_BALANCE: 'NGN:1000',
        AUTO_SETTLEMENT_TIME: '06:00',
      },
      { ownDatabase: true },
    );
    // A fixed, step-aligned instant (a Thursday, 10:00 UTC): TOTP codes below are exact.
    h.gateway.clock.set(new Date('2026-11-26T10:00:00.000Z'));
    admin = (await signedInPlatformUser(h.gateway)).client;
    secondAdmin = (await signedInPlatformUser(h.gateway)).client;
    ({ client: secretary, email: secretaryEmail } = await signedInPlatformUser(h.gateway, 'financial_secretary'));
  });
  afterAll(async () => {
    await h?.close();
  });

  it('registers the bank account with the name its bank gives, only with the TOTP code', async () => {
    const account = await liveAccount();
    const settings = (await account.owner.get('/api/portal/settlements/settings')).body.data;
    expect(settings).toMatchObject({ bank_code: '058', account_name: expect.stringMatching(/^[A-Z]+ [A-Z]+$/), auto_settlement_frequency: 'manual' });
    const withoutCode = await account.owner.put('/api/portal/settlements/account', { body: { bank_code: '058', account_number: accountNumber() } });
    expect([withoutCode.status, withoutCode.body.code]).toEqual([403, 'totp_required']);
    const unresolvable = await account.owner.put('/api/portal/settlements/account', { body: { bank_code: '058', account_number: '9999999999' }, totp: code(account.secret) });
    expect([unresolvable.status, unresolvable.body.code, Object.keys(unresolvable.body.errors)]).toEqual([400, 'validation_error', ['account_number']]);
    h.gateway.clock.advance(60_000);
  });

  it('is requested with its amount reserved, approved by one person, paid: a settlement entry and withdrawal.completed', async () => {
    const account = await liveAccount();
    const requested = await request(account, 2500);
    expect(requested.status).toBe(201);
    expect(requested.body.data).toMatchObject({ status: 'pending_approval', amount: 2500, currency: 'NGN', origin: 'manual', bank_account: { bank_code: '058' } });
    const reference = requested.body.data.reference as string;
    expect(await account.balance()).toMatchObject({ available_balance: 9740 - 2500, reserved_balance: 2500 });

    const queue = (await secretary.get('/api/portal/admin/settlements?status=pending_approval&limit=100')).body.data as Array<{ reference: string; requested_by: string; available_balance: number; approvals_required: number }>;
    expect(queue.find((s) => s.reference === reference)).toMatchObject({ requested_by: account.ownerEmail, available_balance: 9740 - 2500, approvals_required: 1 });

    const approved = await secretary.post(`/api/portal/admin/settlements/${reference}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.data.decisions).toMatchObject([{ decision: 'approve', by: expect.stringMatching(/^staff-financial_secretary-/), ip: expect.any(String) }]);
    await h.sim.idle();
    const settled = await http(h.gateway.baseUrl, 'GET', `/api/v1/wallet/settlements/${reference}`, { token: account.liveKey });
    expect(settled.body.data).toMatchObject({ status: 'completed', approved_at: expect.any(String), completed_at: expect.any(String) });
    expect(await account.balance()).toMatchObject({ available_balance: 9740 - 2500, reserved_balance: 0 });
    const ledger = (await http(h.gateway.baseUrl, 'GET', `/api/v1/wallet/ledger?type=settlement`, { token: account.liveKey })).body.data;
    expect(ledger).toMatchObject([{ type: 'settlement', amount: 2500, direction: 'debit', balance_type: 'reserved', reference }]);
    expect(await events('withdrawal.completed', reference)).toBe(1);
  });

  it('needs the TOTP code above the large-withdrawal threshold, live mode, a bank account and the balance', async () => {
    const account = await liveAccount();
    expect(await request(account, 4000)).toMatchObject({ status: 403, body: { code: 'totp_required' } });
    expect((await request(account, 4000, true)).status).toBe(201);
    h.gateway.clock.advance(60_000);
    expect(await request(account, 5740.01, true)).toMatchObject({ status: 422, body: { code: 'insufficient_wallet_balance' } });
    h.gateway.clock.advance(60_000);
    expect(await request(account, 0)).toMatchObject({ status: 400, body: { code: 'validation_error' } });
    // No KES threshold is configured, so the code is asked for; then the currency is refused.
    const kes = await account.owner.post('/api/portal/settlements', { body: { amount: 100, currency: 'KES' }, totp: code(account.secret) });
    expect([kes.status, kes.body.code, Object.keys(kes.body.errors ?? {})]).toEqual([400, 'validation_error', ['currency']]);
    h.gateway.clock.advance(60_000);

    expect((await account.owner.put('/api/portal/me/mode', { body: { mode: 'test' } })).status).toBe(200);
    expect(await request(account, 100)).toMatchObject({ status: 403, body: { code: 'live_mode_required' } });

    const fresh = await provisionAccount(h.gateway, admin, { identityVerified: true });
    const enrolled = await fresh.owner.post('/api/portal/me/totp/enroll');
    await fresh.owner.post('/api/portal/me/totp/confirm', { body: { code: code(enrolled.body.data.secret) } });
    h.gateway.clock.advance(60_000);
    await fresh.owner.put('/api/portal/me/mode', { body: { mode: 'live' }, totp: code(enrolled.body.data.secret) });
    const noAccount = await fresh.owner.post('/api/portal/settlements', { body: { amount: 100 } });
    expect([noAccount.status, noAccount.body.code]).toEqual([409, 'invalid_state']);
    h.gateway.clock.advance(60_000);
  });

  it('above the two-person threshold needs two different approvers; a person approves once', async () => {
    const account = await liveAccount();
    const reference = (await request(account, 6000, true)).body.data.reference as string;
    h.gateway.clock.advance(60_000);
    expect((await admin.post(`/api/portal/admin/settlements/${reference}/approve`)).body.data).toMatchObject({ status: 'pending_approval', approvals_required: 2 });
    expect(await admin.post(`/api/portal/admin/settlements/${reference}/approve`)).toMatchObject({ status: 409, body: { code: 'conflict' } });
    const second = await secondAdmin.post(`/api/portal/admin/settlements/${reference}/approve`);
    expect(second.body.data.decisions).toHaveLength(2);
    await h.sim.idle();
    expect((await http(h.gateway.baseUrl, 'GET', `/api/v1/wallet/settlements/${reference}`, { token: account.liveKey })).body.data.status).toBe('completed');
    expect(await events('withdrawal.completed', reference)).toBe(1);
  });

  it('two approvers racing: the settlement is paid once', async () => {
    const account = await liveAccount();
    const reference = (await request(account, 2000)).body.data.reference as string;
    const answers = await Promise.all([admin.post(`/api/portal/admin/settlements/${reference}/approve`), secretary.post(`/api/portal/admin/settlements/${reference}/approve`)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    await h.sim.idle();
    expect(await account.balance()).toMatchObject({ available_balance: 9740 - 2000, reserved_balance: 0 });
    expect(await events('withdrawal.completed', reference)).toBe(1);
    const payouts = h.sim.callbacks().filter((c) => c.event === 'transfer.success' && c.body.includes(reference));
    expect(payouts).toHaveLength(1);
  });

  it('a rejection releases the reserved amount and tells the account why; the account cannot approve', async () => {
    const account = await liveAccount();
    const reference = (await request(account, 1500)).body.data.reference as string;
    expect((await account.owner.post(`/api/portal/admin/settlements/${reference}/approve`)).body.code).toBe('insufficient_role');
    const rejected = await admin.post(`/api/portal/admin/settlements/${reference}/reject`, { body: { reason: 'Bank account under review' } });
    expect(rejected.body.data).toMatchObject({ status: 'rejected', rejection_reason: 'Bank account under review', decisions: [{ decision: 'reject', reason: 'Bank account under review' }] });
    expect(await account.balance()).toMatchObject({ available_balance: 9740, reserved_balance: 0 });
    expect(await admin.post(`/api/portal/admin/settlements/${reference}/approve`)).toMatchObject({ status: 409, body: { code: 'invalid_state' } });
    const seen = (await account.owner.get('/api/portal/settlements')).body.data;
    expect(seen).toMatchObject([{ reference, status: 'rejected', rejection_reason: 'Bank account under review' }]);
  });

  it("answers settlement_not_found for another account's settlement and for a test key", async () => {
    const account = await liveAccount();
    const other = await liveAccount();
    const reference = (await request(account, 1000)).body.data.reference as string;
    expect((await http(h.gateway.baseUrl, 'GET', `/api/v1/wallet/settlements/${reference}`, { token: other.liveKey })).body.code).toBe('settlement_not_found');
    const { secret: testKey } = await h.gateway.app.get(ApiKeysService, { strict: false }).issue({ developerId: account.developerId, mode: 'test', kind: 'secret' });
    expect((await http(h.gateway.baseUrl, 'GET', `/api/v1/wallet/settlements/${reference}`, { token: testKey })).body.code).toBe('settlement_not_found');
    expect((await http(h.gateway.baseUrl, 'GET', '/api/v1/wallet/settlements', { token: testKey })).body.data).toEqual([]);
    expect((await http(h.gateway.baseUrl, 'GET', '/api/v1/wallet/settlements?status=sent', { token: account.liveKey })).body.code).toBe('validation_error');
  });

  it('staff decide from the operator CLI too, recorded as theirs, from "cli"', async () => {
    const cli = (...args: string[]) => runEntry('tools/cli/main.ts', ['settlements', ...args], { DATABASE_URL: h.databaseUrl });
    const account = await liveAccount();
    const large = (await request(account, 6000, true)).body.data.reference as string;
    h.gateway.clock.advance(60_000);
    const approved = await cli('approve', large, '--by', secretaryEmail, '--json');
    expect([approved.code, JSON.parse(approved.stdout)]).toEqual([0, expect.objectContaining({ reference: large, status: 'pending_approval' })]);
    const rejected = await cli('reject', large, '--by', secretaryEmail, '--reason', 'Duplicate request');
    expect([rejected.code, rejected.stderr]).toEqual([1, expect.stringMatching(/decided on this settlement already/)]);
    expect((await cli('approve', large, '--by', account.ownerEmail)).stderr).toMatch(/not a platform admin or financial secretary/);

    const small = (await request(account, 1000)).body.data.reference as string;
    expect((await cli('reject', small, '--by', secretaryEmail, '--reason', 'Duplicate request')).code).toBe(0);
    const seen = (await admin.get(`/api/portal/admin/settlements/${small}`)).body.data;
    expect(seen).toMatchObject({ status: 'rejected', rejection_reason: 'Duplicate request', decisions: [{ decision: 'reject', by: secretaryEmail, ip: 'cli' }] });
    expect(await account.balance()).toMatchObject({ available_balance: 9740 - 6000, reserved_balance: 6000 });
  }, 120_000); // four CLI processes, 2–4 s of CPU each under the TypeScript loader

  it('auto-settles the available balance less the minimum once a day from the configured time, approved within the limit', async () => {
    const account = await liveAccount();
    const weekly = await liveAccount();
    expect((await account.owner.put('/api/portal/settlements/schedule', { body: { frequency: 'daily' } })).body.data.auto_settlement_frequency).toBe('daily');
    expect((await weekly.owner.put('/api/portal/settlements/schedule', { body: { frequency: 'weekly' } })).body.data.auto_settlement_frequency).toBe('weekly');
    const weeklyList = async () => (await http(h.gateway.baseUrl, 'GET', '/api/v1/wallet/settlements', { token: weekly.liveKey })).body.data as Array<{ amount: number; origin: string; status: string }>;
    const auto = h.gateway.app.get(AutoSettlementsService, { strict: false });
    const list = async () => (await http(h.gateway.baseUrl, 'GET', '/api/v1/wallet/settlements', { token: account.liveKey })).body.data as Array<{ reference: string; amount: number; origin: string; status: string }>;

    h.gateway.clock.set(new Date('2026-11-27T05:59:00.000Z'));
    await auto.run();
    expect(await list()).toEqual([]);

    h.gateway.clock.set(new Date('2026-11-27T06:00:00.000Z'));
    await Promise.all([auto.run(), auto.run()]);
    await h.sim.idle();
    const [settlement, ...more] = await list();
    expect(more).toEqual([]);
    expect(settlement).toMatchObject({ amount: 9740 - 1000, origin: 'auto', status: 'completed' });
    expect(await account.balance()).toMatchObject({ available_balance: 1000, reserved_balance: 0 });
    // Weekly (Mondays by default): a scheduler that missed Monday still settles the week, on Friday, once.
    expect(await weeklyList()).toMatchObject([{ amount: 9740 - 1000, origin: 'auto', status: 'completed' }]);
    h.gateway.clock.set(new Date('2026-11-29T23:00:00.000Z')); // Sunday, the same ISO week
    await auto.run();
    await h.sim.idle();
    expect(await weeklyList()).toHaveLength(1);

    h.gateway.clock.set(new Date('2026-11-27T18:00:00.000Z'));
    await auto.run();
    expect(await list()).toHaveLength(1);
  });
});
