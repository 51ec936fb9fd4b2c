import { savedCard, startHarness, uniqueReference, type Harness } from '../../test/harness';

describe('preauthorization (holds) over HTTP, at the paths of the API reference', () => {
  let harness: Harness;
  let authorizationCode: string;

  beforeEach(async () => {
    harness = await startHarness();
    ({ authorizationCode } = await savedCard(harness));
  });

  afterEach(async () => {
    await harness.close();
  });

  const reserve = (reference: string, amount = 10_000_00, code = authorizationCode) =>
    harness.api.post('/preauthorization/reserve_authorization', {
      authorization_code: code,
      email: 'ada@example.com',
      amount,
      reference,
    });

  it('reserves (status authorized), then captures part of the hold as a verifiable, fee-bearing transaction', async () => {
    const reference = uniqueReference('hold');
    const reserved = await reserve(reference);
    expect([reserved.httpStatus, reserved.message]).toEqual([200, 'Preauthorization successful']);
    expect(reserved.data).toMatchObject({ reference, status: 'authorized', amount: 10_000_00, currency: 'NGN', gateway_response: { authorizeResponse: 'Approved' } });

    const captured = await harness.api.post('/preauthorization/capture', { reference, currency: 'NGN', amount: 6_000_00 });
    expect([captured.httpStatus, captured.message]).toEqual([200, 'Capture attempted']);
    // The answer is the capture's transaction. 1.5 % of 6,000 = 90 + 100 flat = 190.00
    expect(captured.data).toMatchObject({ reference, status: 'success', amount: 6_000_00, fees: 190_00, channel: 'preauth' });

    const verified = await harness.api.get(`/transaction/verify/${reference}`);
    expect(verified.data).toMatchObject({ status: 'success', amount: 6_000_00, fees: 190_00 });
    expect((await harness.api.get(`/preauthorization/${reference}`)).data).toMatchObject({ status: 'captured', amount: 10_000_00, captured_amount: '600000' });
    await harness.sim.idle();
    expect(harness.receiver.events('charge.success').filter((e) => e.data['reference'] === reference)).toHaveLength(1);
  });

  it('captures the full reserved amount when no amount is given, and a repeated capture answers the same', async () => {
    const reference = uniqueReference('hold');
    await reserve(reference, 3_000_00);
    const first = await harness.api.post('/preauthorization/capture', { reference });
    const second = await harness.api.post('/preauthorization/capture', { reference });
    expect(first.data).toMatchObject({ status: 'success', amount: 3_000_00 });
    expect(second.data).toEqual(first.data);
    await harness.sim.idle();
    expect(harness.receiver.events('charge.success').filter((e) => e.data['reference'] === reference)).toHaveLength(1);

    const different = await harness.api.post('/preauthorization/capture', { reference, amount: 100 });
    expect(different.httpStatus).toBe(400);
  });

  it('refuses to capture more than was reserved, with the documented message', async () => {
    const reference = uniqueReference('hold');
    await reserve(reference, 1_000_00);
    const response = await harness.api.post('/preauthorization/capture', { reference, amount: 1_000_01 });
    expect(response).toMatchObject({ httpStatus: 400, message: 'Capture amount cannot be more than authorized amount', type: 'validation_error', code: 'invalid_params' });
  });

  it('releases a hold, answering only {id, status, reference}; capture after release is a 400; releasing again answers the same', async () => {
    const reference = uniqueReference('hold');
    await reserve(reference);
    const released = await harness.api.post('/preauthorization/release', { reference, currency: 'NGN' });
    expect([released.httpStatus, released.message]).toEqual([200, 'Successfully released']);
    expect(released.data).toEqual({ id: expect.any(Number), status: 'released', reference });
    expect((await harness.api.post('/preauthorization/release', { reference })).data.status).toBe('released');
    const capture = await harness.api.post('/preauthorization/capture', { reference });
    expect(capture.httpStatus).toBe(400);
    expect(capture.message).toBe('The preauthorization has been released and cannot be captured');
  });

  it('the former paths (capture_authorization, release_authorization) do not exist: 404 api_error, nothing released', async () => {
    const reference = uniqueReference('hold');
    await reserve(reference);
    for (const path of ['/preauthorization/capture_authorization', '/preauthorization/release_authorization']) {
      const response = await harness.api.post(path, { reference });
      expect(response).toMatchObject({ httpStatus: 404, status: false, type: 'api_error', code: 'unknown' });
    }
    expect((await harness.api.get(`/preauthorization/${reference}`)).data.status).toBe('authorized');
  });

  it('refuses a reused reference with duplicate_reference; the duplicate_references knob at replay returns the same hold', async () => {
    const reference = uniqueReference('hold');
    const first = await reserve(reference);
    const again = await reserve(reference);
    expect(again).toMatchObject({ httpStatus: 400, message: 'Duplicate Transaction Reference', type: 'validation_error', code: 'duplicate_reference' });
    expect(again.meta).toEqual({ nextStep: expect.any(String) });

    harness.sim.setKnobs({ duplicateReferences: 'replay' });
    expect((await reserve(reference)).data).toEqual(first.data);
    expect((await reserve(reference, 1)).code).toBe('duplicate_reference');
  });

  it('a reservation the issuer refuses is a 400 "Preauthorization unsuccessful" (processor_error); it verifies as failed', async () => {
    const { authorizationCode: brokeCard } = await savedCard(harness, '5399838383838381');
    const reference = uniqueReference('hold');
    const response = await reserve(reference, 1_000_00, brokeCard);
    expect(response).toMatchObject({ httpStatus: 400, status: false, message: 'Preauthorization unsuccessful', type: 'processor_error' });
    expect((await harness.api.get(`/preauthorization/${reference}`)).data).toMatchObject({ status: 'failed', message: 'Insufficient Funds' });
    expect((await harness.api.post('/preauthorization/capture', { reference })).httpStatus).toBe(400);
  });

  it('answers an unknown reference with the documented 400s, and a foreign authorization with 400', async () => {
    const capture = await harness.api.post('/preauthorization/capture', { reference: 'missing' });
    expect(capture).toMatchObject({ httpStatus: 400, message: 'No preauthorized transaction exists for the reference provided', code: 'not_found' });
    const verify = await harness.api.get('/preauthorization/missing');
    expect(verify).toMatchObject({ httpStatus: 400, message: 'Preauthorization not found', type: 'validation_error', code: 'not_found' });
    const foreign = await harness.live.post('/preauthorization/reserve_authorization', {
      authorization_code: authorizationCode,
      email: 'ada@example.com',
      amount: 100,
      reference: uniqueReference('hold'),
    });
    expect(foreign.httpStatus).toBe(400);
    expect(foreign.message).toBe('Invalid authorization code');
  });
});
