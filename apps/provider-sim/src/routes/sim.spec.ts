import { types } from 'node:util';
import { createProviderSimulator } from '../simulator';
import { ApiClient, TEST_SECRET, initialize, savedCard, startHarness, uniqueReference, type Harness } from '../../test/harness';

describe('simulator controls and knobs over HTTP', () => {
  let harness: Harness;

  beforeEach(async () => {
    harness = await startHarness();
  });

  afterEach(async () => {
    await harness.close();
  });

  it('serves /health without a key', async () => {
    const response = await fetch(`${harness.baseUrl}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: true });
  });

  it('requires the bearer secret on /sim routes too', async () => {
    expect((await harness.api.withSecret(undefined).get('/sim/knobs')).httpStatus).toBe(401);
  });

  it('counts every callback by status since the simulator started (GET /sim/callbacks/counts)', async () => {
    expect((await harness.api.get('/sim/callbacks/counts')).data).toEqual({ pending: 0, delivered: 0, failed: 0, cancelled: 0 });
    await savedCard(harness);
    await harness.sim.idle();
    expect((await harness.api.get('/sim/callbacks/counts')).data).toEqual({ pending: 0, delivered: 1, failed: 0, cancelled: 0 });
    expect((await harness.api.withSecret(undefined).get('/sim/callbacks/counts')).httpStatus).toBe(401);
  });

  it('customer_bears_fees: a paid transaction answers amount = requested + fees and requested_amount = requested (issue 12 item 5)', async () => {
    expect((await harness.api.post('/sim/knobs', { customer_bears_fees: true })).data).toMatchObject({ customer_bears_fees: true });
    const { reference } = await savedCard(harness);
    const verified = (await harness.api.get(`/transaction/verify/${reference}`)).data;
    expect(verified.requested_amount).toBe(2_000_00);
    expect(verified.fees).toBeGreaterThan(0);
    expect(verified.amount).toBe(2_000_00 + verified.fees);
  });

  it('currencies: the account takes payments and holds only in the currencies it has enabled, as Paystack refuses the others (issue 12 item 6)', async () => {
    expect((await harness.api.post('/sim/knobs', { currencies: ['NGN'] })).data).toMatchObject({ currencies: ['NGN'] });
    const refused = { httpStatus: 400, status: false, message: 'Currency not supported by merchant', type: 'validation_error', code: 'invalid_params' };
    const reference = uniqueReference();
    expect(await harness.api.post('/transaction/initialize', { email: 'a@b.co', amount: 100_00, currency: 'USD', reference })).toMatchObject(refused);
    expect((await harness.api.get(`/transaction/verify/${reference}`)).httpStatus).toBe(404);
    expect(await harness.api.post('/transaction/charge_authorization', { email: 'a@b.co', amount: 100_00, currency: 'KES', authorization_code: 'AUTH_any' })).toMatchObject(refused);
    expect(await harness.api.post('/preauthorization/reserve_authorization', { email: 'a@b.co', amount: 100_00, currency: 'GBP', authorization_code: 'AUTH_any' })).toMatchObject(refused);
    expect((await harness.api.post('/transaction/initialize', { email: 'a@b.co', amount: 100_00, currency: 'NGN', reference: uniqueReference() })).httpStatus).toBe(200);
  });

  it('reads and updates knobs, validating values', async () => {
    expect((await harness.api.get('/sim/knobs')).data).toEqual({
      latency_ms: 0,
      fail_next: 0,
      fail_status: 500,
      timeout_next: 0,
      hang_ms: 30_000,
      timeout_mode: 'before_processing',
      auto_complete: true,
      transfer_delay_ms: 0,
      misreport_next: 0,
      misreport: 'amount',
      transfer_otp: false,
      duplicate_references: 'refuse',
      customer_bears_fees: false,
      currencies: ['NGN', 'USD', 'GBP', 'KES'],
    });
    const updated = await harness.api.post('/sim/knobs', { latency_ms: 5, fail_next: 1 });
    expect(updated.data).toMatchObject({ latency_ms: 5, fail_next: 1 });
    expect(harness.sim.knobs()).toMatchObject({ latencyMs: 5, failNext: 1 });

    for (const bad of [
      { fail_next: -1 },
      { latency_ms: 1.5 },
      { timeout_mode: 'sometimes' },
      { auto_complete: 'yes' },
      { hang_ms: '10' },
      { fail_status: 200 },
      { fail_status: 600 },
      { misreport_next: -1 },
      { misreport: 'fees' },
      { transfer_otp: 'yes' },
      { duplicate_references: 'sometimes' },
      { customer_bears_fees: 1 },
      { currencies: [] },
      { currencies: ['EUR'] },
      { currencies: 'NGN' },
    ]) {
      const response = await harness.api.post('/sim/knobs', bad);
      expect(response.httpStatus).toBe(400);
    }
    expect(harness.sim.knobs()).toMatchObject({ latencyMs: 5, failNext: 1 });
  });

  it('fail_next: the next N API calls answer 500 unprocessed; /sim calls and rejected keys do not count', async () => {
    await harness.api.post('/sim/knobs', { fail_next: 2 });
    await harness.api.get('/sim/knobs');
    expect((await harness.api.withSecret('sk_wrong').get('/bank')).httpStatus).toBe(401);

    const reference = uniqueReference();
    const first = await harness.api.post('/transaction/initialize', { email: 'a@b.co', amount: 100, reference });
    expect(first.httpStatus).toBe(500);
    expect(first).toMatchObject({ status: false, message: 'Simulated provider error (fail_next)' });
    expect((await harness.api.get(`/transaction/verify/${reference}`)).httpStatus).toBe(500);
    // The failed initialize was never processed.
    expect((await harness.api.get(`/transaction/verify/${reference}`)).httpStatus).toBe(404);
    expect(harness.sim.knobs().failNext).toBe(0);
  });

  it('fail_status: fail_next answers with that status (409, 429), still unprocessed', async () => {
    await harness.api.post('/sim/knobs', { fail_next: 2, fail_status: 409 });
    const reference = uniqueReference();
    const conflict = await harness.api.post('/transaction/initialize', { email: 'a@b.co', amount: 100, reference });
    expect(conflict).toMatchObject({ httpStatus: 409, status: false, message: 'Simulated provider error (fail_next)' });
    await harness.api.post('/sim/knobs', { fail_status: 429 });
    expect((await harness.api.get(`/transaction/verify/${reference}`)).httpStatus).toBe(429);
    expect((await harness.api.get(`/transaction/verify/${reference}`)).httpStatus).toBe(404);
  });

  it('misreport_next: the next N transaction answers get the amount or the currency wrong; the record does not change', async () => {
    const reference = uniqueReference();
    await initialize(harness.api, { amount: 250000, reference });
    await harness.api.post(`/sim/transactions/${reference}/complete`, {});
    await harness.api.post('/sim/knobs', { misreport_next: 1 });
    expect((await harness.api.get(`/transaction/verify/${reference}`)).data).toMatchObject({ amount: 249999, currency: 'NGN', status: 'success' });
    expect((await harness.api.get(`/transaction/verify/${reference}`)).data).toMatchObject({ amount: 250000, currency: 'NGN' });
    await harness.api.post('/sim/knobs', { misreport_next: 1, misreport: 'currency' });
    expect((await harness.api.get(`/transaction/verify/${reference}`)).data).toMatchObject({ amount: 250000, currency: 'USD' });
    expect((await harness.api.get(`/transaction/verify/${reference}`)).data).toMatchObject({ amount: 250000, currency: 'NGN' });
    expect(harness.sim.knobs().misreportNext).toBe(0);
  });

  it('timeout_next: the call hangs so the client timeout fires, and the request was not processed', async () => {
    await harness.api.post('/sim/knobs', { timeout_next: 1 });
    const reference = uniqueReference();
    const started = Date.now();
    await expect(
      harness.api.post('/transaction/initialize', { email: 'a@b.co', amount: 100, reference }, { signal: AbortSignal.timeout(200) }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect((await harness.api.get(`/transaction/verify/${reference}`)).httpStatus).toBe(404);
  });

  it('timeout_mode after_processing: the call is processed but its answer hangs', async () => {
    await harness.api.post('/sim/knobs', { timeout_next: 1, timeout_mode: 'after_processing' });
    const reference = uniqueReference();
    await expect(
      harness.api.post('/transaction/initialize', { email: 'a@b.co', amount: 100, reference }, { signal: AbortSignal.timeout(200) }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
    expect((await harness.api.get(`/transaction/verify/${reference}`)).httpStatus).toBe(200);
  });

  it('a hung request does not keep the simulator from closing', async () => {
    const sim = createProviderSimulator({ secretKeys: [TEST_SECRET], hangMs: 60_000 });
    const api = new ApiClient(await sim.listen(), TEST_SECRET);
    sim.setKnobs({ timeoutNext: 1 });
    const hung = api.get('/bank').catch((error: unknown) => error);
    // The request hangs once the simulator has taken the knob's one unit.
    while (sim.knobs().timeoutNext > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = Date.now();
    await sim.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    const outcome = await hung;
    // Either the 503 "shutting down" answer or a closed connection — but promptly. fetch's error
    // comes from Node's realm, not the test's, so `instanceof` would not know it.
    if (types.isNativeError(outcome)) expect(outcome.name).toBe('TypeError');
    else expect(outcome).toMatchObject({ httpStatus: 503 });
  });

  it('latency_ms delays every API call', async () => {
    await harness.api.post('/sim/knobs', { latency_ms: 120 });
    const started = Date.now();
    await harness.api.get('/bank');
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('idle() waits for delayed completions and their callbacks', async () => {
    harness.sim.setKnobs({ transferDelayMs: 80 });
    const recipient = await harness.api.post('/transferrecipient', {
      type: 'nuban',
      name: 'Idle Test',
      account_number: '0123456789',
      bank_code: '044',
    });
    const reference = uniqueReference('payout');
    await harness.api.post('/transfer', { source: 'balance', amount: 100, recipient: recipient.data.recipient_code, reference });
    expect(harness.receiver.received).toHaveLength(0);
    await harness.sim.idle();
    expect(harness.receiver.events('transfer.success').map((c) => c.data['reference'])).toEqual([reference]);
  });

  it('POST /sim/reset forgets every object and restores the configured knobs', async () => {
    const { reference } = await initialize(harness.api);
    await harness.api.post('/sim/knobs', { latency_ms: 10 });
    expect((await harness.api.post('/sim/reset')).status).toBe(true);
    expect((await harness.api.get(`/transaction/verify/${reference}`)).httpStatus).toBe(404);
    expect(harness.sim.knobs().latencyMs).toBe(0);
  });
});

describe('createProviderSimulator options', () => {
  it.each([
    [{ secretKeys: [] }, /secretKeys must list at least one key/],
    [{ secretKeys: ['a', 'a'] }, /duplicates/],
    [{ secretKeys: ['a'], webhookUrl: 'nope' }, /webhookUrl/],
    [{ secretKeys: ['a'], transferDelayMs: -1 }, /transferDelayMs/],
  ])('rejects %p', (options, message) => {
    expect(() => createProviderSimulator(options)).toThrow(message);
  });

  it('builds authorization_url from publicUrl when given', async () => {
    const sim = createProviderSimulator({ secretKeys: [TEST_SECRET], publicUrl: 'https://pay.sim.test/' });
    try {
      const api = new ApiClient(await sim.listen(), TEST_SECRET);
      const { authorizationUrl, accessCode } = await initialize(api);
      expect(authorizationUrl).toBe(`https://pay.sim.test/checkout/${accessCode}`);
      expect(sim.feeFor(10_000_00, 'NGN')).toBe(250_00);
    } finally {
      await sim.close();
    }
  });
});
