import { savedCard, startHarness, uniqueReference, type Harness } from '../../test/harness';

describe('preauthorization (holds) over HTTP', () => {
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

  it('reserves, then captures part of the hold as a verifiable, fee-bearing transaction', async () => {
    const reference = uniqueReference('hold');
    const reserved = await reserve(reference);
    expect(reserved.httpStatus).toBe(200);
    expect(reserved.data).toMatchObject({ reference, status: 'reserved', amount: 10_000_00 });

    const captured = await harness.api.post('/preauthorization/capture_authorization', { reference, amount: 6_000_00 });
    expect(captured.httpStatus).toBe(200);
    // 1.5 % of 6,000 = 90 + 100 flat = 190.00
    expect(captured.data).toMatchObject({ reference, status: 'success', amount: 6_000_00, fees: 190_00 });

    const verified = await harness.api.get(`/transaction/verify/${reference}`);
    expect(verified.data).toMatchObject({ status: 'success', amount: 6_000_00, fees: 190_00 });
    await harness.sim.idle();
    expect(harness.receiver.events('charge.success').filter((e) => e.data['reference'] === reference)).toHaveLength(1);
  });

  it('captures the full reserved amount when no amount is given, and a repeated capture is a no-op', async () => {
    const reference = uniqueReference('hold');
    await reserve(reference, 3_000_00);
    const first = await harness.api.post('/preauthorization/capture_authorization', { reference });
    const second = await harness.api.post('/preauthorization/capture_authorization', { reference });
    expect(first.data).toMatchObject({ status: 'success', amount: 3_000_00 });
    expect(second.data).toEqual(first.data);
    await harness.sim.idle();
    expect(harness.receiver.events('charge.success').filter((e) => e.data['reference'] === reference)).toHaveLength(1);

    const different = await harness.api.post('/preauthorization/capture_authorization', { reference, amount: 100 });
    expect(different.httpStatus).toBe(400);
  });

  it('refuses to capture more than was reserved', async () => {
    const reference = uniqueReference('hold');
    await reserve(reference, 1_000_00);
    const response = await harness.api.post('/preauthorization/capture_authorization', { reference, amount: 1_000_01 });
    expect(response.httpStatus).toBe(400);
    expect(response.message).toBe('Capture amount cannot exceed the reserved amount');
  });

  it('releases a hold; capture after release is a 400; release is idempotent', async () => {
    const reference = uniqueReference('hold');
    await reserve(reference);
    const released = await harness.api.post('/preauthorization/release_authorization', { reference });
    expect(released.data).toMatchObject({ reference, status: 'released' });
    expect((await harness.api.post('/preauthorization/release_authorization', { reference })).data.status).toBe('released');
    const capture = await harness.api.post('/preauthorization/capture_authorization', { reference });
    expect(capture.httpStatus).toBe(400);
    expect(capture.message).toBe('The reservation has been released and cannot be captured');
  });

  it('is idempotent by reference for reserve, and refuses a reused reference with another amount', async () => {
    const reference = uniqueReference('hold');
    const first = await reserve(reference);
    const again = await reserve(reference);
    expect(again.data).toEqual(first.data);
    const different = await reserve(reference, 1);
    expect(different.httpStatus).toBe(400);
    expect(different.message).toBe('Duplicate Transaction Reference');
  });

  it('records a refused hold as "failed" (card whose later charges lack funds)', async () => {
    const { authorizationCode: brokeCard } = await savedCard(harness, '5399838383838381');
    const reference = uniqueReference('hold');
    const response = await reserve(reference, 1_000_00, brokeCard);
    expect(response.httpStatus).toBe(200);
    expect(response.data).toMatchObject({ status: 'failed', gateway_response: 'Insufficient Funds' });
    expect((await harness.api.post('/preauthorization/capture_authorization', { reference })).httpStatus).toBe(400);
  });

  it('answers 404 for an unknown reservation and 400 for a foreign authorization', async () => {
    expect((await harness.api.post('/preauthorization/capture_authorization', { reference: 'missing' })).httpStatus).toBe(404);
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
