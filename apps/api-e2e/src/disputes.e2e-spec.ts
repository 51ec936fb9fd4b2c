import { DisputesService } from '@gateway/domain/disputes';
import { verifySignatureHeader } from '@gateway/domain/webhooks';
import { randomBytes } from 'node:crypto';
import { Amount } from '@gateway/platform';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, eventsFor, paidPayment, schedulerEnvFor, startPaymentsHarness, type PaymentsHarness } from './support/payments';
import { startScheduler } from './support/scheduler-process';
import { WebhookReceiver } from './support/webhook-receiver';

const DAY_MS = 24 * 60 * 60 * 1_000;
/** Exact cents, as the gateway computes them (no float arithmetic in expectations either). */
const plus = (a: number, b: number) => Amount.parse(a).plus(Amount.parse(b)).toNumber();
const minus = (a: number, b: number) => Amount.parse(a).minus(Amount.parse(b)).toNumber();
const evidence = {
  customer_email: 'ada@example.com',
  customer_name: 'Ada Lovelace',
  customer_phone: '+2348012345678',
  service_details: 'One year of the Pro plan',
  service_date: '2026-01-15',
  delivery_address: '1 Marina, Lagos',
  explanation: 'The customer used the plan for three months before disputing.',
  file_urls: ['https://merchant.example.com/receipts/42.pdf'],
};

const ENCRYPTION_KEYS = `k1:${randomBytes(32).toString('base64')}`;

describe('disputes', () => {
  let h: PaymentsHarness;
  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown) => http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body });
  const balance = async (m: Pick<TestMerchant, 'key'>) => {
    const data = (await api(m, 'GET', '/wallet/balance')).body.data as { available_balance: number; reserved_balance: number };
    return { available: data.available_balance, reserved: data.reserved_balance };
  };
  /** The merchant's ledger entries for one dispute, as `type bucket direction amount`, sorted. */
  const ledgerOf = async (m: TestMerchant, reference: string) =>
    ((await api(m, 'GET', `/wallet/ledger?reference=${reference}&limit=100`)).body.data as Array<{ type: string; amount: number; balance_type: string; direction: string }>)
      .map((e) => `${e.type} ${e.balance_type} ${e.direction} ${e.amount}`)
      .sort();
  const events = async (reference: string) => ({
    created: await eventsFor(h, 'dispute.created', reference),
    won: await eventsFor(h, 'dispute.won', reference),
    lost: await eventsFor(h, 'dispute.lost', reference),
  });

  /**
   * A test merchant with one paid payment of `amount`, disputed through the sandbox (and the
   * simulator's callback delivered). `funded`: another payment first, so the wallet covers the hold.
   */
  async function disputed(
    amount: number,
    options: { merchant?: TestMerchant; funded?: boolean } = {},
  ): Promise<{ merchant: TestMerchant; payment: string; dispute: Record<string, unknown>; before: { available: number; reserved: number } }> {
    const m = options.merchant ?? (await createMerchant(h.gateway));
    if (options.funded ?? true) expect((await paidPayment(h.gateway, m, { amount: 50_000, email: buyer() })).body.data.status).toBe('success');
    const paid = await paidPayment(h.gateway, m, { amount, email: buyer() });
    expect(paid.body.data.status).toBe('success');
    const before = await balance(m);
    const opened = await api(m, 'POST', `/sandbox/payments/${paid.body.data.reference}/dispute`);
    expect(opened.status).toBe(201);
    await h.sim.idle(); // the simulator's charge.dispute.create reaches the gateway too: it must change nothing
    return { merchant: m, payment: paid.body.data.reference, dispute: opened.body.data, before };
  }

  beforeAll(async () => {
    // A database of its own: the deadline test runs the expiry scan, which must not lose other files' disputes.
    // One encryption key with the scheduler that delivers the events (it decrypts endpoint secrets).
    h = await startPaymentsHarness({ ENCRYPTION_KEYS: ENCRYPTION_KEYS }, { ownDatabase: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('opens a dispute once: open, the disputed amount held (available → reserved) and dispute.created once', async () => {
    const { merchant, payment, dispute, before } = await disputed(10_000);
    expect(dispute).toEqual({
      reference: expect.stringMatching(/^DSP_[0-9a-f]{20}$/),
      payment_reference: payment,
      amount: 10_000,
      amount_held: 10_000,
      currency: 'NGN',
      reason: null, // the sandbox files the chargeback without one
      status: 'open',
      evidence: null,
      evidence_due_at: expect.any(String),
      submitted_at: null,
      resolved_at: null,
      created_at: expect.any(String),
    });
    expect(dispute).not.toHaveProperty('provider_dispute_id');
    expect(await balance(merchant)).toEqual({ available: minus(before.available, 10_000), reserved: plus(before.reserved, 10_000) });
    expect(await ledgerOf(merchant, dispute.reference as string)).toEqual(['debit available debit 10000', 'debit reserved credit 10000']);
    expect(await events(dispute.reference as string)).toEqual({ created: 1, won: 0, lost: 0 });
    expect((await api(merchant, 'GET', `/disputes/${dispute.reference}`)).body.data).toEqual(dispute);
    const listed = await api(merchant, 'GET', '/disputes?status=open');
    expect(listed.body.data.map((d: { reference: string }) => d.reference)).toContain(dispute.reference);
    expect((await api(merchant, 'GET', '/disputes?status=won')).body.data).toEqual([]);
  });

  it('open → under_review → won: evidence stored, the hold released to the cent, dispute.won once; evidence after close is 409', async () => {
    const { merchant, dispute, before } = await disputed(2_500.55);
    expect(await balance(merchant)).toEqual({ available: minus(before.available, 2_500.55), reserved: plus(before.reserved, 2_500.55) });
    const reference = dispute.reference as string;
    const submitted = await api(merchant, 'PATCH', `/disputes/${reference}`, evidence);
    expect(submitted.status).toBe(200);
    expect(submitted.body.data).toMatchObject({
      status: 'under_review',
      submitted_at: expect.any(String),
      evidence: { ...evidence, delivery_date: null },
    });
    expect((await api(merchant, 'PATCH', `/disputes/${reference}`, evidence)).body).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('under_review') });

    const won = await api(merchant, 'POST', `/sandbox/disputes/${reference}/resolve`, { outcome: 'won' });
    expect(won.body.data).toMatchObject({ status: 'won', resolved_at: expect.any(String) });
    await h.sim.idle();
    expect(await balance(merchant)).toEqual(before);
    expect(await ledgerOf(merchant, reference)).toEqual(['credit available credit 2500.55', 'credit reserved debit 2500.55', 'debit available debit 2500.55', 'debit reserved credit 2500.55']);
    expect(await events(reference)).toEqual({ created: 1, won: 1, lost: 0 });

    const late = await api(merchant, 'PATCH', `/disputes/${reference}`, evidence);
    expect([late.status, late.body.code]).toEqual([409, 'invalid_state']);
    expect(late.body.message).toContain('won');
    expect((await api(merchant, 'POST', `/sandbox/disputes/${reference}/resolve`, { outcome: 'lost' })).status).toBe(409);
  });

  it('open → under_review → lost: the held amount debited to the cent, dispute.lost once', async () => {
    const { merchant, dispute, before } = await disputed(1_234.56);
    const reference = dispute.reference as string;
    expect((await api(merchant, 'PATCH', `/disputes/${reference}`, evidence)).body.data.status).toBe('under_review');
    expect((await api(merchant, 'POST', `/sandbox/disputes/${reference}/resolve`, { outcome: 'lost' })).body.data.status).toBe('lost');
    await h.sim.idle();
    expect(await balance(merchant)).toEqual({ available: minus(before.available, 1_234.56), reserved: before.reserved });
    expect(await ledgerOf(merchant, reference)).toEqual(['debit available debit 1234.56', 'debit reserved credit 1234.56', 'debit reserved debit 1234.56']);
    expect(await events(reference)).toEqual({ created: 1, won: 0, lost: 1 });
    expect((await api(merchant, 'PATCH', `/disputes/${reference}`, evidence)).status).toBe(409);
  });

  it('holds only what is available when the wallet cannot cover the dispute, and a loss debits only that', async () => {
    // Unfunded: the wallet holds the payment's net only (its fees were paid), less than the disputed amount.
    const { merchant, dispute, before } = await disputed(1_000, { funded: false });
    const reference = dispute.reference as string;
    expect(before.available).toBeLessThan(1_000);
    expect(dispute).toMatchObject({ amount: 1_000, amount_held: before.available });
    expect(await balance(merchant)).toEqual({ available: 0, reserved: plus(before.reserved, before.available) });
    expect((await api(merchant, 'POST', `/sandbox/disputes/${reference}/resolve`, { outcome: 'lost' })).body.data).toMatchObject({ status: 'lost', amount_held: before.available });
    expect(await balance(merchant)).toEqual({ available: 0, reserved: before.reserved });
    const held = before.available;
    expect(await ledgerOf(merchant, reference)).toEqual([`debit available debit ${held}`, `debit reserved credit ${held}`, `debit reserved debit ${held}`]);
  });

  it('other developer and other mode: 404 dispute_not_found on every route', async () => {
    // Identity verified, so that its live key is let in and the refusal is the dispute's.
    const { merchant, dispute } = await disputed(1_000, { merchant: await createMerchant(h.gateway, { identityVerified: true }) });
    const reference = dispute.reference as string;
    const stranger = await createMerchant(h.gateway);
    const live = await merchant.issueKey({ mode: 'live' });
    for (const who of [stranger, { key: live.key }]) {
      for (const [method, path, body] of [
        ['GET', `/disputes/${reference}`, undefined],
        ['PATCH', `/disputes/${reference}`, evidence],
      ] as const) {
        const res = await api(who, method, path, body);
        expect([method, res.status, res.body.code]).toEqual([method, 404, 'dispute_not_found']);
      }
      expect((await api(who, 'GET', '/disputes')).body.data.map((d: { reference: string }) => d.reference)).not.toContain(reference);
    }
    expect((await api(stranger, 'POST', `/sandbox/disputes/${reference}/resolve`, { outcome: 'won' })).body.code).toBe('dispute_not_found');
    expect((await api({ key: live.key }, 'POST', `/sandbox/disputes/${reference}/resolve`, { outcome: 'won' })).body.code).toBe('test_mode_required');
    expect((await api(stranger, 'GET', '/disputes/DSP_00000000000000000000')).body.code).toBe('dispute_not_found');
    expect((await api(merchant, 'GET', `/disputes/${reference}`)).body.data.status).toBe('open');
  });

  it.each([
    ['no body fields', {}, ['customer_email', 'customer_name', 'customer_phone', 'service_details']],
    ['a malformed email', { ...evidence, customer_email: 'not-an-email' }, ['customer_email']],
    ['an empty name', { ...evidence, customer_name: '' }, ['customer_name']],
    ['a name over 200 characters', { ...evidence, customer_name: 'a'.repeat(201) }, ['customer_name']],
    ['a malformed phone', { ...evidence, customer_phone: 'call me' }, ['customer_phone']],
    ['empty service details', { ...evidence, service_details: '' }, ['service_details']],
    ['service details over 2000 characters', { ...evidence, service_details: 'a'.repeat(2001) }, ['service_details']],
    ['a malformed service date', { ...evidence, service_date: '15/01/2026' }, ['service_date']],
    ['a malformed delivery date', { ...evidence, delivery_date: '2026-13-01' }, ['delivery_date']],
    ['an empty delivery address', { ...evidence, delivery_address: '' }, ['delivery_address']],
    ['an explanation over 5000 characters', { ...evidence, explanation: 'a'.repeat(5001) }, ['explanation']],
    ['file_urls that is not a list', { ...evidence, file_urls: 'https://merchant.example.com/a.pdf' }, ['file_urls']],
    ['a file URL that is not https', { ...evidence, file_urls: ['http://merchant.example.com/a.pdf'] }, ['file_urls']],
    ['more than 10 file URLs', { ...evidence, file_urls: Array.from({ length: 11 }, (_, i) => `https://merchant.example.com/${i}.pdf`) }, ['file_urls']],
    ['an unknown field', { ...evidence, tracking_number: '123' }, ['tracking_number']],
  ])('refuses evidence with %s: 400 validation_error naming each field, and the dispute stays open', async (_what, body, fields) => {
    const { merchant, dispute } = await sharedDispute();
    const res = await api(merchant, 'PATCH', `/disputes/${dispute}`, body);
    expect([res.status, res.body.code, Object.keys(res.body.errors ?? {}).sort()]).toEqual([400, 'validation_error', fields]);
    expect((await api(merchant, 'GET', `/disputes/${dispute}`)).body.data.status).toBe('open');
  });

  let shared: Promise<{ merchant: TestMerchant; dispute: string }> | undefined;
  /** One open dispute for the validation table (opened once, on first use). */
  function sharedDispute(): Promise<{ merchant: TestMerchant; dispute: string }> {
    shared ??= disputed(500).then(({ merchant, dispute }) => ({ merchant, dispute: dispute.reference as string }));
    return shared;
  }

  it('loses an open dispute past its deadline through the scan: the hold debited, dispute.lost once; a disputed one under review is kept', async () => {
    const open = await disputed(3_000);
    const reviewed = await disputed(700);
    expect((await api(reviewed.merchant, 'PATCH', `/disputes/${reviewed.dispute.reference}`, evidence)).body.data.status).toBe('under_review');
    const scan = h.gateway.app.get(DisputesService, { strict: false });
    const start = h.gateway.clock.now();
    try {
      expect(await scan.expireOverdue()).toBe(0); // not due yet
      h.gateway.clock.advance(3 * DAY_MS); // the simulator gives two days
      expect(await scan.expireOverdue()).toBeGreaterThanOrEqual(1);
      expect(await scan.expireOverdue()).toBe(0); // once
    } finally {
      h.gateway.clock.set(start);
    }
    const lost = (await api(open.merchant, 'GET', `/disputes/${open.dispute.reference}`)).body.data;
    expect(lost).toMatchObject({ status: 'lost', resolved_at: expect.any(String), evidence: null });
    expect(await balance(open.merchant)).toEqual({ available: minus(open.before.available, 3_000), reserved: open.before.reserved });
    expect(await ledgerOf(open.merchant, open.dispute.reference as string)).toEqual(['debit available debit 3000', 'debit reserved credit 3000', 'debit reserved debit 3000']);
    expect(await events(open.dispute.reference as string)).toEqual({ created: 1, won: 0, lost: 1 });
    expect((await api(reviewed.merchant, 'GET', `/disputes/${reviewed.dispute.reference}`)).body.data.status).toBe('under_review');
    const late = await api(open.merchant, 'PATCH', `/disputes/${open.dispute.reference}`, evidence);
    expect([late.status, late.body.code, late.body.message]).toEqual([409, 'invalid_state', expect.stringContaining('lost')]);
  });

  it("delivers dispute.created and dispute.won to the merchant's endpoint, signed with its secret", async () => {
    const receiver = new WebhookReceiver();
    const url = await receiver.start();
    const scheduler = await startScheduler(schedulerEnvFor(h, { ENCRYPTION_KEYS }));
    try {
      const merchant = await createMerchant(h.gateway);
      const endpoint = await api(merchant, 'POST', '/webhooks', { url: `${url}/hooks`, events: ['dispute.created', 'dispute.won', 'dispute.lost'], webhook_version: 'v2' });
      expect(endpoint.status).toBe(201);
      const { dispute } = await disputed(2_000, { merchant });
      expect((await api(merchant, 'PATCH', `/disputes/${dispute.reference}`, evidence)).body.data.status).toBe('under_review');
      expect((await api(merchant, 'POST', `/sandbox/disputes/${dispute.reference}/resolve`, { outcome: 'won' })).body.data.status).toBe('won');
      await receiver.waitFor(2, 30_000);
      const hooks = receiver.received.map((hook) => ({ hook, body: JSON.parse(hook.body) as { event: string; data: { reference: string; status: string } } }));
      expect(hooks.map(({ body }) => [body.event, body.data.reference, body.data.status]).sort()).toEqual([
        ['dispute.created', dispute.reference, 'open'],
        ['dispute.won', dispute.reference, 'won'],
      ]);
      for (const { hook } of hooks) {
        expect(verifySignatureHeader(endpoint.body.data.secret, String(hook.headers['x-gateway-signature']), hook.body, Math.floor(Date.now() / 1000))).toBe(true);
      }
    } finally {
      await scheduler.stop();
      await receiver.close();
    }
  }, 90_000);
});
