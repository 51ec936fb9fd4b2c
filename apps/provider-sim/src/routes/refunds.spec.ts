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

    const [callback] = harness.receiver.events('refund.processed');
    expect(callback.data).toMatchObject({ id: created.data.id, status: 'processed', amount: 500_00, transaction_reference: reference });
    expect(callback.headers['x-paystack-signature']).toBe(signCallbackBody(callback.rawBody, TEST_SECRET));
  });

  it('refunds the remaining amount by default, and never more than the transaction amount in total', async () => {
    await harness.api.post('/refund', { transaction: reference, amount: 1_500_00 });
    const rest = await harness.api.post('/refund', { transaction: reference });
    expect(rest.data.amount).toBe(500_00);

    const tooMuch = await harness.api.post('/refund', { transaction: reference, amount: 1 });
    expect(tooMuch.httpStatus).toBe(400);
    expect(tooMuch.message).toBe('Transaction has been fully refunded');
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

  it('replays the stored response for a repeated Idempotency-Key (extension) and refuses reuse with another body', async () => {
    const headers = { 'idempotency-key': 'refund-attempt-1' };
    const first = await harness.api.post('/refund', { transaction: reference, amount: 100_00 }, { headers });
    const replay = await harness.api.post('/refund', { transaction: reference, amount: 100_00 }, { headers });
    expect(replay.httpStatus).toBe(200);
    expect(replay.data).toEqual(first.data);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const misuse = await harness.api.post('/refund', { transaction: reference, amount: 200_00 }, { headers });
    expect(misuse.httpStatus).toBe(422);

    // Only one refund exists: the remainder is still 1,900.00.
    expect((await harness.api.post('/refund', { transaction: reference })).data.amount).toBe(1_900_00);
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
