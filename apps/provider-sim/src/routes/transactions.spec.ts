import { startHarness, initialize, payOnCheckout, savedCard, uniqueReference, type Harness } from '../../test/harness';

describe('transactions over HTTP', () => {
  let harness: Harness;

  beforeEach(async () => {
    harness = await startHarness();
  });

  afterEach(async () => {
    await harness.close();
  });

  describe('authentication', () => {
    it('answers 401 "Invalid key" without a bearer secret or with an unknown one', async () => {
      for (const client of [harness.api.withSecret(undefined), harness.api.withSecret('sk_test_unknown')]) {
        const response = await client.get('/transaction/verify/whatever');
        expect(response.httpStatus).toBe(401);
        expect(response).toMatchObject({ status: false, message: 'Invalid key' });
      }
    });
  });

  describe('POST /transaction/initialize', () => {
    it('creates a checkout and returns authorization_url, access_code and the gateway reference', async () => {
      const reference = uniqueReference();
      const response = await harness.api.post('/transaction/initialize', {
        email: 'Ada@Example.com',
        amount: '250000',
        currency: 'NGN',
        reference,
        callback_url: 'https://merchant.test/return',
        metadata: { order_id: 'ord_1' },
      });
      expect(response.httpStatus).toBe(200);
      expect(response.status).toBe(true);
      expect(response.data.reference).toBe(reference);
      expect(response.data.access_code).toMatch(/^[a-z0-9]{15}$/);
      expect(response.data.authorization_url).toBe(`${harness.baseUrl}/checkout/${response.data.access_code}`);
    });

    it('returns the same transaction when the same payment is initialized again (simulator accommodation)', async () => {
      const first = await initialize(harness.api);
      const again = await harness.api.post('/transaction/initialize', {
        email: 'ada@example.com',
        amount: 200_000,
        reference: first.reference,
      });
      expect(again.httpStatus).toBe(200);
      expect(again.data.access_code).toBe(first.accessCode);
    });

    it('refuses the same reference with a different payload: 400 "Duplicate Transaction Reference"', async () => {
      const first = await initialize(harness.api);
      for (const change of [{ amount: 200_001 }, { currency: 'USD' }, { email: 'someone@example.com' }]) {
        const response = await harness.api.post('/transaction/initialize', {
          email: 'ada@example.com',
          amount: 200_000,
          reference: first.reference,
          ...change,
        });
        expect(response.httpStatus).toBe(400);
        expect(response).toMatchObject({ status: false, message: 'Duplicate Transaction Reference' });
      }
    });

    it.each([
      [{ amount: 200_000 }, 'email is required'],
      [{ email: 'not-an-email', amount: 100 }, 'Invalid email'],
      [{ email: 'a@b.co', amount: 10.5 }, 'amount must be a positive integer in minor units (e.g. kobo)'],
      [{ email: 'a@b.co', amount: -100 }, 'amount must be a positive integer in minor units (e.g. kobo)'],
      [{ email: 'a@b.co', amount: 0 }, 'amount must be a positive integer in minor units (e.g. kobo)'],
      [{ email: 'a@b.co', amount: 100, currency: 'EUR' }, 'Currency not supported. Use one of NGN, USD, GBP, KES'],
      [{ email: 'a@b.co', amount: 100, reference: 'has spaces' }, 'Invalid character in transaction reference'],
      // PaystackOSS/openapi errors/api-errors.json: only - . = and alphanumerics (issue 12 item 7).
      [{ email: 'a@b.co', amount: 100, reference: 'PAY_6f1c2a9e' }, 'Invalid character in transaction reference'],
      [{ email: 'a@b.co', amount: 100, callback_url: 'javascript:alert(1)' }, 'callback_url must be an absolute http(s) URL'],
    ])('rejects bad input %p with 400', async (body, message) => {
      const response = await harness.api.post('/transaction/initialize', body);
      expect(response.httpStatus).toBe(400);
      expect(response).toMatchObject({ status: false, message });
    });

    it('answers 400 for malformed JSON', async () => {
      const response = await fetch(`${harness.baseUrl}/transaction/initialize`, {
        method: 'POST',
        headers: { authorization: `Bearer ${harness.api.secret}`, 'content-type': 'application/json' },
        body: '{"email":',
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ status: false });
    });
  });

  describe('GET /transaction/verify/:reference', () => {
    it('reports a fresh transaction as "abandoned" with no fee and an empty authorization', async () => {
      const { reference } = await initialize(harness.api, { metadata: { order_id: 'ord_9' } });
      const response = await harness.api.get(`/transaction/verify/${reference}`);
      expect(response.httpStatus).toBe(200);
      expect(response.data).toMatchObject({
        status: 'abandoned',
        reference,
        amount: 200_000,
        currency: 'NGN',
        fees: null,
        paid_at: null,
        channel: 'card',
        metadata: { order_id: 'ord_9' },
        authorization: {},
        customer: { email: 'ada@example.com' },
      });
      expect(response.data.customer.customer_code).toMatch(/^CUS_/);
      expect(typeof response.data.id).toBe('number');
    });

    it('answers 404 "Transaction reference not found" for an unknown reference', async () => {
      const response = await harness.api.get('/transaction/verify/nope');
      expect(response.httpStatus).toBe(404);
      expect(response).toMatchObject({ status: false, message: 'Transaction reference not found' });
    });

    it('partitions state per secret: a transaction created with the test key is 404 with the live key', async () => {
      const { reference } = await initialize(harness.api);
      expect((await harness.api.get(`/transaction/verify/${reference}`)).httpStatus).toBe(200);
      const live = await harness.live.get(`/transaction/verify/${reference}`);
      expect(live.httpStatus).toBe(404);
      // …and the live account may use the same reference for its own, unrelated transaction.
      const liveInit = await harness.live.post('/transaction/initialize', { email: 'x@y.co', amount: 5, reference });
      expect(liveInit.httpStatus).toBe(200);
    });
  });

  describe('POST /transaction/charge_authorization', () => {
    it('charges a saved reusable card: success with fee, the same authorization and a charge.success callback', async () => {
      const { authorizationCode } = await savedCard(harness);
      const reference = uniqueReference('chg');
      const response = await harness.api.post('/transaction/charge_authorization', {
        authorization_code: authorizationCode,
        email: 'ada@example.com',
        amount: 10_000_00,
        reference,
        metadata: { subscription: 'sub_1' },
      });
      expect(response.httpStatus).toBe(200);
      expect(response.data).toMatchObject({
        status: 'success',
        reference,
        amount: 10_000_00,
        fees: 250_00,
        gateway_response: 'Approved',
        metadata: { subscription: 'sub_1' },
        authorization: { authorization_code: authorizationCode, last4: '4081', reusable: true },
      });
      await harness.sim.idle();
      const callback = harness.receiver.events('charge.success').find((event) => event.data['reference'] === reference);
      expect(callback?.data).toMatchObject({ status: 'success', amount: 10_000_00, fees: 250_00 });
    });

    it('reports a decline from the card behind the authorization (status failed, "Insufficient Funds")', async () => {
      const { authorizationCode } = await savedCard(harness, '5399838383838381');
      const response = await harness.api.post('/transaction/charge_authorization', {
        authorization_code: authorizationCode,
        email: 'ada@example.com',
        amount: 5_000_00,
        reference: uniqueReference('chg'),
      });
      expect(response.httpStatus).toBe(200);
      expect(response.data).toMatchObject({ status: 'failed', gateway_response: 'Insufficient Funds', fees: null, paid_at: null });
    });

    it('refuses any reused reference like Paystack — even the same charge repeated — and charges once', async () => {
      const { authorizationCode } = await savedCard(harness);
      const body = { authorization_code: authorizationCode, email: 'ada@example.com', amount: 1_000_00, reference: uniqueReference('chg') };
      const first = await harness.api.post('/transaction/charge_authorization', body);
      expect(first.httpStatus).toBe(200);
      for (const again of [body, { ...body, amount: 2_000_00 }]) {
        const repeated = await harness.api.post('/transaction/charge_authorization', again);
        expect(repeated.httpStatus).toBe(400);
        expect(repeated).toMatchObject({ status: false, message: 'Duplicate Transaction Reference' });
        expect(repeated.data).toBeUndefined();
      }
      await harness.sim.idle();
      expect(harness.receiver.events('charge.success').filter((e) => e.data['reference'] === body.reference)).toHaveLength(1);
      // The first charge is unchanged: verify is how a client learns its outcome.
      const verified = await harness.api.get(`/transaction/verify/${body.reference}`);
      expect(verified.data).toMatchObject({ id: first.data.id, status: 'success', amount: 1_000_00 });
    });

    it('refuses unknown, foreign-email and foreign-account authorizations with 400 "Invalid authorization code"', async () => {
      const { authorizationCode } = await savedCard(harness);
      const attempts = [
        harness.api.post('/transaction/charge_authorization', { authorization_code: 'AUTH_doesnotexist', email: 'ada@example.com', amount: 100 }),
        harness.api.post('/transaction/charge_authorization', { authorization_code: authorizationCode, email: 'eve@example.com', amount: 100 }),
        harness.live.post('/transaction/charge_authorization', { authorization_code: authorizationCode, email: 'ada@example.com', amount: 100 }),
      ];
      for (const response of await Promise.all(attempts)) {
        expect(response.httpStatus).toBe(400);
        expect(response).toMatchObject({ status: false, message: 'Invalid authorization code' });
      }
    });

    it('refuses a non-reusable authorization', async () => {
      const { reference, accessCode } = await initialize(harness.api);
      await (await payOnCheckout(harness.baseUrl, accessCode, '5060990580000212')).arrayBuffer();
      const verified = await harness.api.get(`/transaction/verify/${reference}`);
      expect(verified.data.authorization.reusable).toBe(false);
      const response = await harness.api.post('/transaction/charge_authorization', {
        authorization_code: verified.data.authorization.authorization_code,
        email: 'ada@example.com',
        amount: 100,
      });
      expect(response.httpStatus).toBe(400);
      expect(response.message).toBe('This authorization is not reusable');
    });
  });
});
