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

  const evidence = (id: number) =>
    harness.api.post(`/dispute/${id}/evidence`, {
      customer_email: 'ada@example.com',
      customer_name: 'Ada Lovelace',
      customer_phone: '+2348000000000',
      service_details: 'Delivered to the door, signed for.',
      delivery_address: '1 Marina, Lagos',
    });

  /** Asks for an upload URL and PUTs a file there, as a merchant's client would; returns the file name. */
  const upload = async (id: number): Promise<string> => {
    const url = await harness.api.get(`/dispute/${id}/upload_url?upload_filename=receipt.pdf`);
    expect([url.httpStatus, url.message]).toEqual([200, 'Upload url generated']);
    const put = await fetch(url.data.signedUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: Buffer.from('%PDF-1.4 receipt') });
    expect(put.status).toBe(200);
    return url.data.fileName;
  };

  it('opens a dispute shaped like charge.dispute.create (reference in transaction, camelCase dueAt)', async () => {
    const opened = await harness.api.post('/sim/disputes', { transaction: reference, amount: 1_000_00, reason: 'Item not received' });
    expect(opened.httpStatus).toBe(200);
    expect(opened.data).toMatchObject({
      status: 'awaiting-merchant-feedback',
      resolution: null,
      refund_amount: 1_000_00,
      currency: 'NGN',
      transaction_reference: null,
      transaction: { reference, status: 'success' },
      dueAt: expect.any(String),
      resolvedAt: null,
      category: 'chargeback',
    });
    await harness.sim.idle();
    expect(harness.receiver.events('charge.dispute.create').map((callback) => callback.data['id'])).toEqual([opened.data.id]);
  });

  it('evidence alone does not contest: the dispute still awaits the merchant', async () => {
    const id = (await harness.api.post('/sim/disputes', { transaction: reference })).data.id as number;
    const added = await evidence(id);
    expect([added.httpStatus, added.message]).toEqual([200, 'Evidence created']);
    expect(added.data).toMatchObject({ dispute: id, id: expect.any(Number), customer_name: 'Ada Lovelace', delivery_address: '1 Marina, Lagos' });
    expect((await harness.api.get(`/dispute/${id}`)).data.status).toBe('awaiting-merchant-feedback');
  });

  it('contests with evidence, an uploaded file and PUT resolve (declined); the bank then decides (charge.dispute.resolve)', async () => {
    const id = (await harness.api.post('/sim/disputes', { transaction: reference, amount: 1_000_00 })).data.id as number;
    const evidenceId = (await evidence(id)).data.id as number;
    const fileName = await upload(id);
    const contested = await harness.api.request('PUT', `/dispute/${id}/resolve`, { resolution: 'declined', message: 'Delivered', refund_amount: 0, uploaded_filename: fileName, evidence: evidenceId }, {});
    expect([contested.httpStatus, contested.message]).toEqual([200, 'Dispute successfully resolved']);
    expect(contested.data).toMatchObject({ id, status: 'awaiting-bank-feedback', resolution: null, note: 'Delivered' });

    const decided = await harness.api.post(`/sim/disputes/${id}/resolve`, { resolution: 'declined' });
    expect(decided.data).toMatchObject({ status: 'resolved', resolution: 'declined', resolvedAt: expect.any(String) });
    await harness.sim.idle();
    const events = harness.receiver.received.map((callback) => callback.event).filter((event) => event.startsWith('charge.dispute'));
    expect(events).toEqual(['charge.dispute.create', 'charge.dispute.resolve']);
    for (const callback of harness.receiver.events('charge.dispute.resolve')) {
      expect(callback.data).toMatchObject({ id, status: 'resolved', resolution: 'declined' });
      expect(callback.headers['x-paystack-signature']).toBe(signCallbackBody(callback.rawBody, TEST_SECRET));
    }
  });

  it('accepting (merchant-accepted) resolves the dispute at once with the refund amount', async () => {
    const id = (await harness.api.post('/sim/disputes', { transaction: reference, amount: 1_500_00 })).data.id as number;
    const fileName = await upload(id);
    const accepted = await harness.api.request('PUT', `/dispute/${id}/resolve`, { resolution: 'merchant-accepted', message: 'Refunding', refund_amount: 1_000_00, uploaded_filename: fileName }, {});
    expect(accepted.data).toMatchObject({ status: 'resolved', resolution: 'merchant-accepted', refund_amount: 1_000_00, resolvedAt: expect.any(String) });
    await harness.sim.idle();
    expect(harness.receiver.events('charge.dispute.resolve')).toHaveLength(1);
  });

  it('refuses to contest without evidence ("Evidence is required"), without an uploaded file, or twice', async () => {
    const id = (await harness.api.post('/sim/disputes', { transaction: reference })).data.id as number;
    const issued = (await harness.api.get(`/dispute/${id}/upload_url`)).data.fileName as string;
    const body = { resolution: 'declined', message: 'No', refund_amount: 0, uploaded_filename: issued };
    expect((await harness.api.request('PUT', `/dispute/${id}/resolve`, body, {})).message).toBe('uploaded_filename must name a file uploaded to this dispute’s upload URL');
    const fileName = await upload(id);
    expect((await harness.api.request('PUT', `/dispute/${id}/resolve`, { ...body, uploaded_filename: fileName }, {})).message).toBe('Evidence is required');
    await evidence(id);
    expect((await harness.api.request('PUT', `/dispute/${id}/resolve`, { ...body, uploaded_filename: fileName }, {})).httpStatus).toBe(200);
    expect((await harness.api.request('PUT', `/dispute/${id}/resolve`, { ...body, uploaded_filename: fileName }, {})).message).toBe('Dispute is awaiting the bank');
    const missing = await harness.api.request('PUT', `/dispute/${id}/resolve`, { resolution: 'declined' }, {});
    expect(missing).toMatchObject({ httpStatus: 400, code: 'missing_params' });
    expect((await fetch(`${harness.baseUrl}/uploads/unknown-file`, { method: 'PUT', body: 'x' })).status).toBe(404);
  });

  it('refuses evidence and a second resolution after resolution', async () => {
    const id = (await harness.api.post('/sim/disputes', { transaction: reference })).data.id;
    await harness.api.post(`/sim/disputes/${id}/resolve`, { resolution: 'merchant-accepted' });
    const again = await harness.api.post(`/sim/disputes/${id}/resolve`, { resolution: 'declined' });
    expect(again.httpStatus).toBe(400);
    const late = await evidence(id);
    expect(late.httpStatus).toBe(400);
    expect(late.message).toBe('Dispute has already been resolved');
  });

  it('validates input and answers 404 for unknown or foreign disputes', async () => {
    expect((await harness.api.post('/sim/disputes', { transaction: reference, amount: 2_000_01 })).httpStatus).toBe(400);
    const id = (await harness.api.post('/sim/disputes', { transaction: reference })).data.id;
    const second = await harness.api.post('/sim/disputes', { transaction: reference });
    expect(second.httpStatus).toBe(400);
    expect(second.message).toBe('Transaction already has an unresolved dispute');
    expect((await harness.api.post(`/sim/disputes/${id}/resolve`, { resolution: 'maybe' })).httpStatus).toBe(400);
    expect(await harness.api.post(`/dispute/${id}/evidence`, { customer_email: 'a@b.co' })).toMatchObject({ message: 'customer_name is required', code: 'missing_params' });
    expect(await harness.api.get('/dispute/424242')).toMatchObject({ httpStatus: 404, message: 'Dispute not found', code: 'not_found' });
    expect((await harness.api.get('/dispute/not-a-number')).httpStatus).toBe(404);
    expect((await harness.live.get(`/dispute/${id}`)).httpStatus).toBe(404);
    expect((await harness.live.get(`/dispute/${id}/upload_url`)).httpStatus).toBe(404);
  });
});
