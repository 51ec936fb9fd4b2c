import { signCallbackBody } from '../callbacks';
import { TEST_SECRET, savedCard, startHarness, type Harness } from '../../test/harness';

describe('refunds over HTTP', () => {
  let harness: Harness;
  let reference: string;

  beforeEach(async () => {
    harness = await startHarness();
    ({ reference } = await savedCard(harness)); // a paid NGN 2,000.00 transaction
  });

  afterEach(async () => {
    await harness.close();
  });

  it('opens a pending refund that is processed asynchronously with a signed refund.processed callback', async () => {
    const created = await harness.api.post('/refund', { transaction: reference, amount: 500_00, merchant_note: 'damaged' });
    expect(created.httpStatus).toBe(200);
    expect(created.data).toMatchObject({
      transaction: { reference },
      transaction_reference: reference,
      amount: 500_00,
      currency: 'NGN',
      status: 'pending',
      merchant_note: 'damaged',
    });

    await harness.sim.idle();
    const fetched = await harness.api.get(`/refund/${created.data.id}`);
    expect(fetched.data.status).toBe('processed');

    // Paystack's refund events (guide "Refunds", doc-code-snippets dist/doc/payments/refunds/events.js):
    // no id, the transaction's reference, the processor's refund_reference, the amount as a string.
    const [callback] = harness.receiver.events('refund.processed');
    expect(callback.data).toEqual({
      status: 'processed',
      transaction_reference: reference,
      refund_reference: expect.stringMatching(/^\d+$/),
      amount: '50000',
      currency: 'NGN',
      processor: expect.any(String),
      customer: { first_name: null, last_name: null, email: expect.any(String) },
      integration: expect.any(Number),
      domain: 'test',
    });
    expect(callback.headers['x-paystack-signature']).toBe(signCallbackBody(callback.rawBody, TEST_SECRET));
  });

  it('refunds the remaining amount by default, and never more than the transaction amount in total', async () => {
    await harness.api.post('/refund', { transaction: reference, amount: 1_500_00 });
    const rest = await harness.api.post('/refund', { transaction: reference });
    expect(rest.data.amount).toBe(500_00);

    const tooMuch = await harness.api.post('/refund', { transaction: reference, amount: 1 });
    expect(tooMuch.httpStatus).toBe(400);
    expect(tooMuch).toMatchObject({ message: 'Transaction has been fully reversed', type: 'validation_error', code: 'transaction_reversed' });
  });

  it('refuses an over-refund with 400', async () => {
    const response = await harness.api.post('/refund', { transaction: reference, amount: 2_000_01 });
    expect(response.httpStatus).toBe(400);
    expect(response.message).toBe('Refund amount cannot exceed the refundable balance of 200000 (minor units)');
  });

  it('gives a failed refund back to the refundable balance (manual completion)', async () => {
    harness.sim.setKnobs({ autoComplete: false });
    const refund = await harness.api.post('/refund', { transaction: reference });
    expect((await harness.api.get(`/refund/${refund.data.id}`)).data.status).toBe('pending');
    const failed = await harness.api.post(`/sim/refunds/${refund.data.id}/complete`, { outcome: 'failed' });
    expect(failed.data.status).toBe('failed');
    await harness.sim.idle();
    expect(harness.receiver.events('refund.failed')).toHaveLength(1);
    expect((await harness.api.post('/refund', { transaction: reference })).data.amount).toBe(2_000_00);
  });

  it('takes no Idempotency-Key, like Paystack: a repeated call is a second refund, and List Refunds shows both', async () => {
    const headers = { 'idempotency-key': 'refund-attempt-1' };
    const first = await harness.api.post('/refund', { transaction: reference, amount: 100_00 }, { headers });
    const again = await harness.api.post('/refund', { transaction: reference, amount: 100_00 }, { headers });
    expect(again.httpStatus).toBe(200);
    expect(again.data.id).not.toBe(first.data.id);

    const listed = await harness.api.get(`/refund?transaction=${reference}&perPage=1&page=2`);
    expect(listed.httpStatus).toBe(200);
    expect(listed.data).toEqual([expect.objectContaining({ id: again.data.id, transaction: first.data.transaction.id, amount: 100_00, currency: 'NGN' })]);
    expect(listed.meta).toMatchObject({ total: 2, perPage: 1, page: 2, pageCount: 2 });
    expect((await harness.api.get('/refund?transaction=unknown-ref')).data).toEqual([]);
    expect((await harness.live.get(`/refund?transaction=${reference}`)).data).toEqual([]);
  });

  it('answers 404 for unknown transactions and refunds, and 400 for unpaid transactions', async () => {
    expect((await harness.api.post('/refund', { transaction: 'missing' })).httpStatus).toBe(404);
    expect((await harness.api.get('/refund/999999999')).httpStatus).toBe(404);
    expect((await harness.live.post('/refund', { transaction: reference })).httpStatus).toBe(404);
    const unpaid = await harness.api.post('/transaction/initialize', { email: 'a@b.co', amount: 100 });
    const response = await harness.api.post('/refund', { transaction: unpaid.data.reference });
    expect(response.httpStatus).toBe(400);
    expect(response.message).toBe('Only successful transactions can be refunded');
  });
});
