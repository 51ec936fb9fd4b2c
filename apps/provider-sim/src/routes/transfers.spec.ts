import { signCallbackBody } from '../callbacks';
import { TEST_SECRET, startHarness, uniqueReference, type Harness } from '../../test/harness';

/** Paystack's transfer references: lowercase, `-` and `_`, at least 16 characters. */
const transferReference = () => uniqueReference('payout').toLowerCase().padEnd(16, '0');

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
    expect(response.httpStatus).toBe(201);
    return response.data.recipient_code as string;
  };

  describe('banks', () => {
    it('lists banks with the documented fields, filtered by currency or country', async () => {
      const response = await harness.api.get('/bank?currency=NGN');
      expect(response.data).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'Guaranty Trust Bank', code: '058', slug: 'guaranty-trust-bank', currency: 'NGN', country: 'Nigeria', type: 'nuban', active: true }),
        ]),
      );
      expect(response.data.every((bank: { currency: string }) => bank.currency === 'NGN')).toBe(true);
      const kenya = await harness.api.get('/bank?country=kenya');
      expect(kenya.data.map((bank: { code: string }) => bank.code)).toEqual(['01', '68', 'MPESA']);
      expect((await harness.api.get('/bank?currency=KES&type=mobile_money')).data.map((bank: { type: string }) => bank.type)).toEqual(['mobile_money']);
    });

    it('pages with perPage and the next / previous cursors in meta', async () => {
      const first = await harness.api.get('/bank?currency=NGN&use_cursor=true&perPage=3');
      expect(first.data).toHaveLength(3);
      expect(first.meta).toEqual({ next: expect.any(String), previous: null, perPage: 3 });
      const names: string[] = first.data.map((bank: { name: string }) => bank.name);
      let next: string | null = first.meta.next;
      let second: typeof first | undefined;
      while (next) {
        const page = await harness.api.get(`/bank?currency=NGN&use_cursor=true&perPage=3&next=${encodeURIComponent(next)}`);
        second ??= page;
        names.push(...page.data.map((bank: { name: string }) => bank.name));
        next = page.meta.next;
      }
      expect(names).toHaveLength(7);
      expect(new Set(names).size).toBe(7);
      const back = await harness.api.get(`/bank?currency=NGN&use_cursor=true&perPage=3&previous=${encodeURIComponent(second?.meta.previous)}`);
      expect(back.data).toEqual(first.data);
      expect((await harness.api.get('/bank?perPage=0')).httpStatus).toBe(400);
    });
  });

  describe('resolving account names (GET /bank/resolve)', () => {
    const refusal = {
      httpStatus: 422,
      status: false,
      message: 'Could not resolve account name. Check parameters or try again.',
      meta: { nextStep: expect.any(String) },
      type: 'validation_error',
      code: 'invalid_params',
    };

    it('answers the name the bank holds for a 10-digit account: upper-case, derived from the number, the same every time', async () => {
      const resolved = await harness.api.get('/bank/resolve?account_number=0123456789&bank_code=058');
      expect(resolved).toMatchObject({ httpStatus: 200, status: true, message: 'Account number resolved' });
      expect(resolved.data).toEqual({ account_number: '0123456789', account_name: 'IFEOMA JOHNSON', bank_id: 3 });
      expect((await harness.api.get('/bank/resolve?account_number=0123456789&bank_code=058')).data).toEqual(resolved.data);
      // The name belongs to the number: another bank, another id, the same name; another number, another name.
      expect((await harness.api.get('/bank/resolve?account_number=0123456789&bank_code=044')).data).toEqual({ account_number: '0123456789', account_name: 'IFEOMA JOHNSON', bank_id: 1 });
      expect((await harness.api.get('/bank/resolve?account_number=0123456701&bank_code=058')).data.account_name).toBe('ADAEZE BELLO');
      // Test keys and live keys alike: resolving reads no account state.
      expect((await harness.live.get('/bank/resolve?account_number=0123456789&bank_code=058')).data.account_name).toBe('IFEOMA JOHNSON');
    });

    it.each([
      ['the unresolvable account 9999999999', 'account_number=9999999999&bank_code=058'],
      ['an unknown bank code', 'account_number=0123456789&bank_code=999'],
      ['a bank that is not Nigerian (KCB)', 'account_number=0123456789&bank_code=01'],
      ['a short account number', 'account_number=12345&bank_code=058'],
      ['an account number with letters', 'account_number=01234567ab&bank_code=058'],
    ])('refuses %s with 422 "Could not resolve account name…"', async (_case, query) => {
      expect(await harness.api.get(`/bank/resolve?${query}`)).toMatchObject(refusal);
    });

    it('a missing parameter is 400 missing_params; no key is 401', async () => {
      expect(await harness.api.get('/bank/resolve?bank_code=058')).toMatchObject({ httpStatus: 400, message: 'account_number is required', code: 'missing_params' });
      expect(await harness.api.get('/bank/resolve?account_number=0123456789')).toMatchObject({ httpStatus: 400, message: 'bank_code is required', code: 'missing_params' });
      expect((await harness.api.withSecret(undefined).get('/bank/resolve?account_number=0123456789&bank_code=058')).httpStatus).toBe(401);
    });

    it('a recipient keeps the name given, not the resolved one', async () => {
      await recipient('0123456789');
      const again = await harness.api.post('/transferrecipient', { type: 'nuban', name: 'Chinwe Okafor', account_number: '0123456789', bank_code: '058' });
      expect(again.data.details.account_name).toBe('CHINWE OKAFOR');
    });
  });

  describe('recipients', () => {
    it('creates a recipient once per bank account (201, as documented)', async () => {
      const response = await harness.api.post('/transferrecipient', {
        type: 'nuban',
        name: 'Chinwe Okafor',
        account_number: '0123456789',
        bank_code: '058',
      });
      expect(response.data).toMatchObject({
        recipient_code: expect.stringMatching(/^RCP_/),
        type: 'nuban',
        name: 'Chinwe Okafor',
        currency: 'NGN',
        details: { account_number: '0123456789', account_name: 'CHINWE OKAFOR', bank_code: '058', bank_name: 'Guaranty Trust Bank' },
      });
      expect(await recipient('0123456789')).toBe(response.data.recipient_code);
    });

    it('takes the recipient type of the currency: kepss and mobile_money for KES', async () => {
      const bank = await harness.api.post('/transferrecipient', { type: 'kepss', name: 'Wanjiru', account_number: '1234567890123', bank_code: '01', currency: 'KES' });
      expect(bank).toMatchObject({ httpStatus: 201, data: { type: 'kepss', currency: 'KES' } });
      const wallet = await harness.api.post('/transferrecipient', { type: 'mobile_money', name: 'Otieno', account_number: '0712345678', bank_code: 'MPESA', currency: 'KES' });
      expect(wallet).toMatchObject({ httpStatus: 201, data: { type: 'mobile_money', details: { bank_name: 'M-PESA' } } });
    });

    it.each([
      [{ type: 'nuban', name: 'X', account_number: '0123456789', bank_code: '058', currency: 'KES' }, 'Recipients of type "nuban" are paid in NGN'],
      [{ type: 'kepss', name: 'X', account_number: '0123456789', bank_code: '058', currency: 'NGN' }, 'Recipients of type "kepss" are paid in KES'],
      [{ type: 'authorization', name: 'X', account_number: '0123456789', bank_code: '058' }, 'type must be one of: nuban, ghipss, basa, kepss, mobile_money'],
      [{ type: 'nuban', name: 'X', account_number: '12345', bank_code: '058' }, 'account_number must be 10 digits'],
      [{ type: 'nuban', name: 'X', account_number: '0123456789', bank_code: '999' }, 'Unknown bank code. See GET /bank'],
      [{ type: 'kepss', name: 'X', account_number: '0123456789', bank_code: 'MPESA', currency: 'KES' }, 'Unknown bank code. See GET /bank'],
    ])('rejects invalid recipients %p', async (body, message) => {
      const response = await harness.api.post('/transferrecipient', body);
      expect(response).toMatchObject({ httpStatus: 400, message, type: 'validation_error' });
    });
  });

  it('queues a transfer as pending (recipient as its id), then settles it with a signed transfer.success callback', async () => {
    const code = await recipient();
    const reference = transferReference();
    const created = await harness.api.post('/transfer', { source: 'balance', amount: 50_000_00, recipient: code, reason: 'Payout', reference });
    expect([created.httpStatus, created.message]).toEqual([200, 'Transfer has been queued']);
    expect(created.data).toMatchObject({ transfer_code: expect.stringMatching(/^TRF_/), reference, status: 'pending', amount: 50_000_00, recipient: expect.any(Number) });

    await harness.sim.idle();
    const verified = await harness.api.get(`/transfer/verify/${reference}`);
    expect(verified.data).toMatchObject({ status: 'success', transferred_at: expect.any(String), recipient: { recipient_code: code } });
    const [callback] = harness.receiver.events('transfer.success');
    expect(callback.data).toMatchObject({ reference, status: 'success', amount: 50_000_00, recipient: { recipient_code: code } });
    expect(callback.headers['x-paystack-signature']).toBe(signCallbackBody(callback.rawBody, TEST_SECRET));
  });

  it('fails a transfer to the documented failing account 0000000000 with transfer.failed', async () => {
    const code = await recipient('0000000000');
    const reference = transferReference();
    await harness.api.post('/transfer', { source: 'balance', amount: 1_000_00, recipient: code, reference });
    await harness.sim.idle();
    expect((await harness.api.get(`/transfer/verify/${reference}`)).data).toMatchObject({
      status: 'failed',
      gateway_response: 'Could not credit account',
    });
    expect(harness.receiver.events('transfer.failed').map((e) => e.data['reference'])).toEqual([reference]);
    expect(harness.receiver.events('transfer.success')).toHaveLength(0);
  });

  describe('account numbers that play a bank', () => {
    const transferTo = async (accountNumber: string) => {
      const reference = transferReference();
      const created = await harness.api.post('/transfer', { source: 'balance', amount: 2_500_00, recipient: await recipient(accountNumber), reference });
      expect(created.data.status).toBe('pending');
      return reference;
    };
    const eventsFor = (reference: string) =>
      harness.receiver.events().filter((callback) => callback.data['reference'] === reference).map((callback) => [callback.event, callback.data['status']]);

    it('0000000001 settles success but never calls back: only verifying tells', async () => {
      const silent = await transferTo('0000000001');
      // A transfer made after it does call back, so a callback for the first would have arrived before it.
      const loud = await transferTo('0123456789');
      await harness.sim.idle();
      expect((await harness.api.get(`/transfer/verify/${silent}`)).data).toMatchObject({ status: 'success', transferred_at: expect.any(String) });
      expect(eventsFor(loud)).toEqual([['transfer.success', 'success']]);
      expect(eventsFor(silent)).toEqual([]);
      expect(harness.sim.callbacks().filter((delivery) => delivery.body.includes(silent))).toEqual([]);
    });

    it('0000000002 settles success (transfer.success), then is reversed (transfer.reversed, signed, the same payload shape)', async () => {
      const reference = await transferTo('0000000002');
      await harness.sim.idle();
      expect(eventsFor(reference)).toEqual([
        ['transfer.success', 'success'],
        ['transfer.reversed', 'reversed'],
      ]);
      const [success] = harness.receiver.events('transfer.success');
      const [reversed] = harness.receiver.events('transfer.reversed');
      expect(Object.keys(reversed.data).sort()).toEqual(Object.keys(success.data).sort());
      expect(reversed.data).toMatchObject({ reference, amount: 2_500_00, failures: null, transferred_at: success.data['transferred_at'], recipient: { details: { account_number: '0000000002' } } });
      expect(reversed.headers['x-paystack-signature']).toBe(signCallbackBody(reversed.rawBody, TEST_SECRET));
      expect((await harness.api.get(`/transfer/verify/${reference}`)).data).toMatchObject({ status: 'reversed', transferred_at: expect.any(String) });
    });

    it('0000000002 is reversed transfer_delay_ms after its success, and a manual reversal comes first when asked', async () => {
      harness.sim.setKnobs({ transferDelayMs: 60_000 });
      const reference = await transferTo('0000000002');
      expect((await harness.api.post(`/sim/transfers/${reference}/complete`, {})).data.status).toBe('success');
      // The reversal is scheduled a minute after the success: until then the transfer stays paid.
      expect((await harness.api.get(`/transfer/verify/${reference}`)).data.status).toBe('success');
      expect((await harness.api.post(`/sim/transfers/${reference}/complete`, { outcome: 'reversed' })).data.status).toBe('reversed');
      // The manual reversal cancelled the scheduled one, so idle() does not wait a minute, and it is reversed once.
      await harness.sim.idle();
      expect(eventsFor(reference)).toEqual([
        ['transfer.success', 'success'],
        ['transfer.reversed', 'reversed'],
      ]);
    });
  });

  it('reverses a successful transfer through /sim/transfers/:reference/complete (outcome reversed); never a pending, failed or reversed one', async () => {
    harness.sim.setKnobs({ autoComplete: false });
    const reference = transferReference();
    await harness.api.post('/transfer', { source: 'balance', amount: 1_000_00, recipient: await recipient(), reference });
    const pending = await harness.api.post(`/sim/transfers/${reference}/complete`, { outcome: 'reversed' });
    expect(pending).toMatchObject({ httpStatus: 400, message: 'Only a successful transfer can be reversed; this one is pending', type: 'validation_error' });
    expect((await harness.api.get(`/transfer/verify/${reference}`)).data.status).toBe('pending');

    await harness.api.post(`/sim/transfers/${reference}/complete`, { outcome: 'success' });
    const reversed = await harness.api.post(`/sim/transfers/${reference}/complete`, { outcome: 'reversed' });
    expect(reversed).toMatchObject({ httpStatus: 200, message: 'Transfer reversed', data: { reference, status: 'reversed', transferred_at: expect.any(String) } });
    expect((await harness.api.post(`/sim/transfers/${reference}/complete`, { outcome: 'reversed' })).message).toBe('Only a successful transfer can be reversed; this one is reversed');
    expect((await harness.api.post(`/sim/transfers/${reference}/complete`, {})).message).toBe('Transfer is already reversed');
    await harness.sim.idle();
    const [callback] = harness.receiver.events('transfer.reversed');
    expect(callback.data).toMatchObject({ reference, status: 'reversed' });
    expect(callback.headers['x-paystack-signature']).toBe(signCallbackBody(callback.rawBody, TEST_SECRET));
    expect(harness.receiver.events('transfer.reversed')).toHaveLength(1);

    const failed = transferReference();
    await harness.api.post('/transfer', { source: 'balance', amount: 1_000_00, recipient: await recipient(), reference: failed });
    await harness.api.post(`/sim/transfers/${failed}/complete`, { outcome: 'failed' });
    expect((await harness.api.post(`/sim/transfers/${failed}/complete`, { outcome: 'reversed' })).httpStatus).toBe(400);
    expect((await harness.api.post(`/sim/transfers/${failed}/complete`, { outcome: 'refunded' })).message).toBe('outcome must be one of: success, failed, reversed');
  });

  it('refuses a reused reference with duplicate_reference, the same request included; the knob at replay returns the same transfer', async () => {
    const code = await recipient();
    const body = { source: 'balance', amount: 1_000_00, recipient: code, reference: transferReference() };
    const first = await harness.api.post('/transfer', body);
    const again = await harness.api.post('/transfer', body);
    expect(again).toMatchObject({ httpStatus: 400, status: false, type: 'validation_error', code: 'duplicate_reference', meta: { nextStep: expect.any(String) } });
    expect((await harness.api.get(`/transfer/verify/${body.reference}`)).data.transfer_code).toBe(first.data.transfer_code);

    harness.sim.setKnobs({ duplicateReferences: 'replay' });
    expect((await harness.api.post('/transfer', body)).data.transfer_code).toBe(first.data.transfer_code);
    expect((await harness.api.post('/transfer', { ...body, amount: 2 })).code).toBe('duplicate_reference');
    await harness.sim.idle();
    expect(harness.receiver.events('transfer.success')).toHaveLength(1);
  });

  it.each([
    ['Payout_Reference_0001', 'Your reference contains illegal special characters'],
    ['payout.reference.0001', 'Your reference contains illegal special characters'],
    ['short-ref-15char', null],
    ['short-ref-15cha', 'reference must be at least 16 characters'],
  ])('checks the transfer reference %s', async (reference, message) => {
    const code = await recipient();
    const response = await harness.api.post('/transfer', { source: 'balance', amount: 100, recipient: code, reference });
    if (message === null) expect(response.httpStatus).toBe(200);
    else expect(response).toMatchObject({ httpStatus: 400, message });
  });

  it('transfer_otp: the transfer answers status otp and waits; finalize_transfer with the OTP queues it', async () => {
    harness.sim.setKnobs({ transferOtp: true });
    const code = await recipient();
    const reference = transferReference();
    const created = await harness.api.post('/transfer', { source: 'balance', amount: 2_000_00, recipient: code, reference });
    expect([created.httpStatus, created.message, created.data.status]).toEqual([200, 'Transfer requires OTP to continue', 'otp']);
    await harness.sim.idle();
    expect((await harness.api.get(`/transfer/verify/${reference}`)).data.status).toBe('otp');

    const transferCode = created.data.transfer_code;
    expect((await harness.api.post('/transfer/finalize_transfer', { transfer_code: transferCode, otp: '000000' })).message).toBe('Invalid OTP');
    expect((await harness.api.post('/transfer/finalize_transfer', { transfer_code: 'TRF_nope', otp: '123456' })).message).toBe('Transfer code is invalid');
    const finalized = await harness.api.post('/transfer/finalize_transfer', { transfer_code: transferCode, otp: '123456' });
    expect(finalized).toMatchObject({ httpStatus: 200, data: { reference, status: 'pending' } });
    await harness.sim.idle();
    expect((await harness.api.get(`/transfer/verify/${reference}`)).data.status).toBe('success');
    expect((await harness.api.post('/transfer/finalize_transfer', { transfer_code: transferCode, otp: '123456' })).httpStatus).toBe(400);
  });

  it('waits for /sim/transfers/:reference/complete when auto_complete is off, and settles only once', async () => {
    harness.sim.setKnobs({ autoComplete: false });
    const code = await recipient();
    const reference = transferReference();
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
    const reference = transferReference();
    await harness.api.post('/transfer', { source: 'balance', amount: 1_000_00, recipient: code, reference });
    expect((await harness.api.get(`/transfer/verify/${reference}`)).data.status).toBe('pending');
    // A manual completion cancels the scheduled one, so idle() does not wait a minute.
    await harness.api.post(`/sim/transfers/${reference}/complete`, {});
    await harness.sim.idle();
    expect(harness.receiver.events('transfer.success')).toHaveLength(1);
  });

  it('refuses unknown recipients (invalid_transfer_recipient), other sources and another currency; unknown transfers are 404', async () => {
    const unknown = await harness.api.post('/transfer', { source: 'balance', amount: 100, recipient: 'RCP_nope' });
    expect(unknown).toMatchObject({ httpStatus: 400, message: 'Recipient specified is invalid', type: 'validation_error', code: 'invalid_transfer_recipient' });
    const code = await recipient();
    expect((await harness.api.post('/transfer', { source: 'card', amount: 100, recipient: code })).httpStatus).toBe(400);
    expect((await harness.api.post('/transfer', { source: 'balance', amount: 100, recipient: code, currency: 'KES' })).httpStatus).toBe(400);
    expect(await harness.api.get('/transfer/verify/unknown')).toMatchObject({ httpStatus: 404, message: 'Transfer not found', code: 'not_found' });
    expect((await harness.live.post('/transfer', { source: 'balance', amount: 100, recipient: code })).httpStatus).toBe(400);
  });
});
