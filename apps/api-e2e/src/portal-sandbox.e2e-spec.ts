import { authenticator } from 'otplib';
import { type PortalAccount, type PortalClient, provisionAccount, signedInPlatformUser } from './support/portal-client';
import { buyer, initializePayment, paidPayment, type PaymentsHarness, startPaymentsHarness } from './support/payments';

/**
 * The portal's sandbox routes (/api/portal/sandbox/…): the merchant API's sandbox controls for the
 * session's account in test mode only (a live-mode session gets `test_mode_required` on every one),
 * for developers, admins and owners (a viewer reads the test clock and nothing more), CSRF-checked.
 */
describe('portal sandbox routes', () => {
  let h: PaymentsHarness;
  let admin: PortalClient;
  let a: PortalAccount;
  let key: string;

  const ACTIONS: Array<[string, unknown]> = [
    ['/api/portal/sandbox/payments/PAY-unknown/complete', { outcome: 'success' }],
    ['/api/portal/sandbox/scans/abandoned-payments/run', {}],
    ['/api/portal/sandbox/scans/scheduled-charges/run', {}],
    ['/api/portal/sandbox/scans/payment-intent-expiry/run', {}],
    ['/api/portal/sandbox/payments/PAY-unknown/dispute', undefined],
    ['/api/portal/sandbox/disputes/DSP_unknown/resolve', { outcome: 'won' }],
    ['/api/portal/sandbox/virtual-accounts/00000000-0000-4000-8000-000000000000/deposits', { amount: 100 }],
    ['/api/portal/sandbox/clock/advance', { seconds: 60 }],
    ['/api/portal/sandbox/clock/reset', undefined],
  ];

  beforeAll(async () => {
    h = await startPaymentsHarness();
    admin = (await signedInPlatformUser(h.gateway)).client;
    a = await provisionAccount(h.gateway, admin, { identityVerified: true });
    key = (await a.owner.post('/api/portal/keys', { body: { name: 'sandbox' } })).body.data.secret as string;
  });
  afterAll(() => h?.close());

  it('completes checkouts, runs scans, advances the clock with rules_run, and opens and decides a dispute', async () => {
    const pending = (await initializePayment(h.gateway, { key }, { amount: 5000, email: buyer() })).body.data.reference as string;
    const completed = await a.owner.post(`/api/portal/sandbox/payments/${pending}/complete`, { body: { outcome: 'insufficient_funds' } });
    expect([completed.status, completed.body.data.status]).toEqual([200, 'failed']);
    const invalid = await a.owner.post(`/api/portal/sandbox/payments/${pending}/complete`, { body: { outcome: 'maybe' } });
    expect([invalid.status, invalid.body.code]).toEqual([400, 'validation_error']);

    const scan = await a.owner.post('/api/portal/sandbox/scans/abandoned-payments/run', { body: {} });
    expect(scan.body.data).toEqual({ scan: 'abandoned-payments', affected: 0 });
    const advanced = await a.owner.post('/api/portal/sandbox/clock/advance', { body: { seconds: 25 * 3600 } });
    expect(advanced.status).toBe(200);
    expect(advanced.body.data).toMatchObject({ offset_seconds: 25 * 3600, rules_run: { abandoned_payments: 1, scheduled_charges: 0 } });
    expect((await a.owner.get(`/api/portal/payments/${pending}`)).body.data.status).toBe('abandoned');
    expect((await a.owner.post('/api/portal/sandbox/clock/reset')).body.data.offset_seconds).toBe(0);
    expect((await a.owner.get('/api/portal/sandbox/clock')).body.data.offset_seconds).toBe(0);

    const paid = (await paidPayment(h.gateway, { key }, { amount: 10000, email: buyer() })).body.data.reference as string;
    const opened = await a.owner.post(`/api/portal/sandbox/payments/${paid}/dispute`);
    expect([opened.status, opened.body.data.status, opened.body.data.payment_reference]).toEqual([201, 'open', paid]);
    const lost = await a.owner.post(`/api/portal/sandbox/disputes/${opened.body.data.reference}/resolve`, { body: { outcome: 'lost' } });
    expect([lost.status, lost.body.data.status]).toEqual([200, 'lost']);
    const again = await a.owner.post(`/api/portal/sandbox/disputes/${opened.body.data.reference}/resolve`, { body: { outcome: 'won' } });
    expect([again.status, again.body.code]).toEqual([409, 'invalid_state']);
  });

  it('lets a viewer read the clock but refuses every action, and needs the CSRF token', async () => {
    const viewer = (await a.addMember('viewer')).client;
    expect((await viewer.get('/api/portal/sandbox/clock')).status).toBe(200);
    for (const [path, body] of ACTIONS) {
      const refused = await viewer.post(path, { body });
      expect([path, refused.status, refused.body.code]).toEqual([path, 403, 'insufficient_role']);
    }
    const noCsrf = await a.owner.post('/api/portal/sandbox/clock/advance', { body: { seconds: 60 }, csrf: false });
    expect([noCsrf.status, noCsrf.body.code]).toEqual([403, 'csrf_token_invalid']);
  });

  it('refuses every sandbox route to a live-mode session with test_mode_required', async () => {
    const enrolled = await a.owner.post('/api/portal/me/totp/enroll');
    const secret: string = enrolled.body.data.secret;
    const code = () => authenticator.clone({ epoch: h.gateway.clock.now().getTime() }).generate(secret);
    expect((await a.owner.post('/api/portal/me/totp/confirm', { body: { code: code() } })).status).toBe(200);
    h.gateway.clock.advance(30_000);
    expect((await a.owner.put('/api/portal/me/mode', { body: { mode: 'live' }, totp: code() })).status).toBe(200);

    const clock = await a.owner.get('/api/portal/sandbox/clock');
    expect([clock.status, clock.body.code]).toEqual([403, 'test_mode_required']);
    for (const [path, body] of ACTIONS) {
      const refused = await a.owner.post(path, { body });
      expect([path, refused.status, refused.body.code]).toEqual([path, 403, 'test_mode_required']);
    }
    expect((await a.owner.put('/api/portal/me/mode', { body: { mode: 'test' } })).status).toBe(200);
    expect((await a.owner.get('/api/portal/sandbox/clock')).status).toBe(200);
  });
});
