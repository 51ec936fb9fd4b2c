import { signCallbackBody } from '../callbacks';
import { TEST_SECRET, startHarness, uniqueReference, type Harness } from '../../test/harness';

describe('transfers over HTTP', () => {
  let harness: Harness;

  beforeEach(async () => {
    harness = await startHarness();
  });

  afterEach(async () => {
    await harness.close();
  });

  const recipient = async (accountNumber = '0123456789') => {
    const response = await harness.api.post('/transferrecipient', {
      type: 'nuban',
      name: 'Chinwe Okafor',
      account_number: accountNumber,
      bank_code: '058',
      currency: 'NGN',
    });
    expect(response.httpStatus).toBe(200);
    return response.data.recipient_code as string;
  };

  it('lists banks', async () => {
    const response = await harness.api.get('/bank');
    expect(response.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Guaranty Trust Bank', code: '058' })]),
    );
  });

  it('creates a recipient once per bank account', async () => {
    const response = await harness.api.post('/transferrecipient', {
      type: 'nuban',
      name: 'Chinwe Okafor',
      account_number: '0123456789',
      bank_code: '058',
    });
    expect(response.data).toMatchObject({
      recipient_code: expect.stringMatching(/^RCP_/),
      name: 'Chinwe Okafor',
      details: { account_number: '0123456789', account_name: 'CHINWE OKAFOR', bank_code: '058', bank_name: 'Guaranty Trust Bank' },
    });
    expect(await recipient('0123456789')).toBe(response.data.recipient_code);
  });

  it.each([
    [{ type: 'mobile_money', name: 'X', account_number: '0123456789', bank_code: '058' }, 'Only recipients of type "nuban" are supported'],
    [{ type: 'nuban', name: 'X', account_number: '12345', bank_code: '058' }, 'account_number must be 10 digits'],
    [{ type: 'nuban', name: 'X', account_number: '0123456789', bank_code: '999' }, 'Unknown bank code. See GET /bank'],
  ])('rejects invalid recipients %p', async (body, message) => {
    const response = await harness.api.post('/transferrecipient', body);
    expect(response.httpStatus).toBe(400);
    expect(response.message).toBe(message);
  });

  it('queues a transfer as pending, then settles it with a signed transfer.success callback', async () => {
    const code = await recipient();
    const reference = uniqueReference('payout');
    const created = await harness.api.post('/transfer', { source: 'balance', amount: 50_000_00, recipient: code, reason: 'Payout', reference });
    expect(created.httpStatus).toBe(200);
    expect(created.data).toMatchObject({ transfer_code: expect.stringMatching(/^TRF_/), reference, status: 'pending', amount: 50_000_00 });

    await harness.sim.idle();
    const verified = await harness.api.get(`/transfer/verify/${reference}`);
    expect(verified.data).toMatchObject({ status: 'success', transferred_at: expect.any(String) });
    const [callback] = harness.receiver.events('transfer.success');
    expect(callback.data).toMatchObject({ reference, status: 'success', amount: 50_000_00, recipient: { recipient_code: code } });
    expect(callback.headers['x-paystack-signature']).toBe(signCallbackBody(callback.rawBody, TEST_SECRET));
  });

  it('fails a transfer to the documented failing account 0000000000 with transfer.failed', async () => {
    const code = await recipient('0000000000');
    const reference = uniqueReference('payout');
    await harness.api.post('/transfer', { source: 'balance', amount: 1_000_00, recipient: code, reference });
    await harness.sim.idle();
    expect((await harness.api.get(`/transfer/verify/${reference}`)).data).toMatchObject({
      status: 'failed',
      gateway_response: 'Could not credit account',
    });
    expect(harness.receiver.events('transfer.failed').map((e) => e.data['reference'])).toEqual([reference]);
    expect(harness.receiver.events('transfer.success')).toHaveLength(0);
  });

  it('is idempotent by reference and refuses a reused reference with another amount', async () => {
    const code = await recipient();
    const body = { source: 'balance', amount: 1_000_00, recipient: code, reference: uniqueReference('payout') };
    const first = await harness.api.post('/transfer', body);
    const again = await harness.api.post('/transfer', body);
    expect(again.data.transfer_code).toBe(first.data.transfer_code);
    expect((await harness.api.post('/transfer', { ...body, amount: 2 })).message).toBe('Duplicate Transfer Reference');
    await harness.sim.idle();
    expect(harness.receiver.events('transfer.success')).toHaveLength(1);
  });

  it('waits for /sim/transfers/:reference/complete when auto_complete is off, and settles only once', async () => {
    harness.sim.setKnobs({ autoComplete: false });
    const code = await recipient();
    const reference = uniqueReference('payout');
    await harness.api.post('/transfer', { source: 'balance', amount: 1_000_00, recipient: code, reference });
    await harness.sim.idle();
    expect((await harness.api.get(`/transfer/verify/${reference}`)).data.status).toBe('pending');

    const completed = await harness.api.post(`/sim/transfers/${reference}/complete`, { outcome: 'failed' });
    expect(completed.data.status).toBe('failed');
    const twice = await harness.api.post(`/sim/transfers/${reference}/complete`, {});
    expect(twice.httpStatus).toBe(400);
    expect(twice.message).toBe('Transfer is already failed');
  });

  it('honours the transfer delay: still pending right after creation when the delay is long', async () => {
    harness.sim.setKnobs({ transferDelayMs: 60_000 });
    const code = await recipient();
    const reference = uniqueReference('payout');
    await harness.api.post('/transfer', { source: 'balance', amount: 1_000_00, recipient: code, reference });
    expect((await harness.api.get(`/transfer/verify/${reference}`)).data.status).toBe('pending');
    // A manual completion cancels the scheduled one, so idle() does not wait a minute.
    await harness.api.post(`/sim/transfers/${reference}/complete`, {});
    await harness.sim.idle();
    expect(harness.receiver.events('transfer.success')).toHaveLength(1);
  });

  it('refuses unknown recipients and other sources; unknown transfers are 404', async () => {
    expect((await harness.api.post('/transfer', { source: 'balance', amount: 100, recipient: 'RCP_nope' })).message).toBe(
      'Recipient specified is invalid',
    );
    const code = await recipient();
    expect((await harness.api.post('/transfer', { source: 'card', amount: 100, recipient: code })).httpStatus).toBe(400);
    expect((await harness.api.get('/transfer/verify/unknown')).httpStatus).toBe(404);
    expect((await harness.live.post('/transfer', { source: 'balance', amount: 100, recipient: code })).httpStatus).toBe(400);
  });
});
