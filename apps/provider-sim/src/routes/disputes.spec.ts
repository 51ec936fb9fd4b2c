import { signCallbackBody } from '../callbacks';
import { TEST_SECRET, savedCard, startHarness, type Harness } from '../../test/harness';

describe('disputes over HTTP', () => {
  let harness: Harness;
  let reference: string;

  beforeEach(async () => {
    harness = await startHarness();
    ({ reference } = await savedCard(harness));
  });

  afterEach(async () => {
    await harness.close();
  });

  it('opens a dispute (charge.dispute.create), takes evidence, and resolves it (charge.dispute.resolve)', async () => {
    const opened = await harness.api.post('/sim/disputes', { transaction: reference, amount: 1_000_00, reason: 'Item not received' });
    expect(opened.httpStatus).toBe(200);
    expect(opened.data).toMatchObject({
      status: 'awaiting-merchant-feedback',
      resolution: null,
      refund_amount: 1_000_00,
      currency: 'NGN',
      transaction_reference: reference,
      transaction: { reference, status: 'success' },
      due_at: expect.any(String),
    });
    const id = opened.data.id as number;

    const evidence = await harness.api.post(`/dispute/${id}/evidence`, {
      customer_email: 'ada@example.com',
      customer_name: 'Ada Lovelace',
      customer_phone: '+2348000000000',
      service_details: 'Delivered to the door, signed for.',
      delivery_address: '1 Marina, Lagos',
    });
    expect(evidence.httpStatus).toBe(200);
    expect(evidence.data).toMatchObject({ dispute: id, customer_name: 'Ada Lovelace', delivery_address: '1 Marina, Lagos' });
    expect((await harness.api.get(`/dispute/${id}`)).data.status).toBe('awaiting-bank-feedback');

    const resolved = await harness.api.post(`/sim/disputes/${id}/resolve`, { resolution: 'declined' });
    expect(resolved.data).toMatchObject({ status: 'resolved', resolution: 'declined', resolved_at: expect.any(String) });

    await harness.sim.idle();
    const events = harness.receiver.received.map((callback) => callback.event).filter((event) => event.startsWith('charge.dispute'));
    expect(events).toEqual(['charge.dispute.create', 'charge.dispute.resolve']);
    for (const callback of harness.receiver.events('charge.dispute.resolve')) {
      expect(callback.data).toMatchObject({ id, status: 'resolved', resolution: 'declined' });
      expect(callback.headers['x-paystack-signature']).toBe(signCallbackBody(callback.rawBody, TEST_SECRET));
    }
  });

  it('refuses evidence and a second resolution after resolution', async () => {
    const id = (await harness.api.post('/sim/disputes', { transaction: reference })).data.id;
    await harness.api.post(`/sim/disputes/${id}/resolve`, { resolution: 'merchant-accepted' });
    const again = await harness.api.post(`/sim/disputes/${id}/resolve`, { resolution: 'declined' });
    expect(again.httpStatus).toBe(400);
    const evidence = await harness.api.post(`/dispute/${id}/evidence`, {
      customer_email: 'a@b.co',
      customer_name: 'A',
      customer_phone: '1',
      service_details: 'x',
    });
    expect(evidence.httpStatus).toBe(400);
    expect(evidence.message).toBe('Dispute has already been resolved');
  });

  it('validates input and answers 404 for unknown or foreign disputes', async () => {
    expect((await harness.api.post('/sim/disputes', { transaction: reference, amount: 2_000_01 })).httpStatus).toBe(400);
    const id = (await harness.api.post('/sim/disputes', { transaction: reference })).data.id;
    const second = await harness.api.post('/sim/disputes', { transaction: reference });
    expect(second.httpStatus).toBe(400);
    expect(second.message).toBe('Transaction already has an unresolved dispute');
    expect((await harness.api.post(`/sim/disputes/${id}/resolve`, { resolution: 'maybe' })).httpStatus).toBe(400);
    expect((await harness.api.post(`/dispute/${id}/evidence`, { customer_email: 'a@b.co' })).message).toBe('customer_name is required');
    expect((await harness.api.get('/dispute/424242')).httpStatus).toBe(404);
    expect((await harness.api.get('/dispute/not-a-number')).httpStatus).toBe(404);
    expect((await harness.live.get(`/dispute/${id}`)).httpStatus).toBe(404);
  });
});
