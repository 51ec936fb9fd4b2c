import { signCallbackBody } from '../callbacks';
import { TEST_SECRET, startHarness, type Harness } from '../../test/harness';

describe('customers and dedicated accounts over HTTP', () => {
  let harness: Harness;

  beforeEach(async () => {
    harness = await startHarness();
  });

  afterEach(async () => {
    await harness.close();
  });

  const customer = async (email = 'bola@example.com') =>
    harness.api.post('/customer', { email, first_name: 'Bola', last_name: 'Ade', phone: '+2348000000000' });

  it('creates a customer once per email and account', async () => {
    const first = await customer();
    expect(first.data).toMatchObject({ customer_code: expect.stringMatching(/^CUS_/), email: 'bola@example.com', first_name: 'Bola' });
    expect((await customer('BOLA@example.com')).data.customer_code).toBe(first.data.customer_code);
    expect((await harness.live.post('/customer', { email: 'bola@example.com' })).data.customer_code).not.toBe(
      first.data.customer_code,
    );
  });

  it('scopes Idempotency-Key replays to the account (extension)', async () => {
    const headers = { 'idempotency-key': 'customer-1' };
    const first = await harness.api.post('/customer', { email: 'idem@example.com' }, { headers });
    const replay = await harness.api.post('/customer', { email: 'idem@example.com' }, { headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data).toEqual(first.data);
    const otherAccount = await harness.live.post('/customer', { email: 'idem@example.com' }, { headers });
    expect(otherAccount.headers.get('idempotent-replayed')).toBeNull();
    expect(otherAccount.data.customer_code).not.toBe(first.data.customer_code);
  });

  it('assigns a unique 10-digit dedicated account per customer (asking again returns it)', async () => {
    const one = (await customer('one@example.com')).data.customer_code;
    const two = (await customer('two@example.com')).data.customer_code;
    const first = await harness.api.post('/dedicated_account', { customer: one, preferred_bank: 'wema-bank' });
    expect(first.data).toMatchObject({
      account_number: expect.stringMatching(/^\d{10}$/),
      account_name: 'SIM/BOLA ADE',
      bank: { name: 'Wema Bank', slug: 'wema-bank' },
      assigned: true,
      active: true,
      customer: { customer_code: one, email: 'one@example.com' },
    });
    expect((await harness.api.post('/dedicated_account', { customer: one, preferred_bank: 'wema-bank' })).data.account_number).toBe(
      first.data.account_number,
    );
    const second = await harness.api.post('/dedicated_account', { customer: two });
    expect(second.data.account_number).not.toBe(first.data.account_number);
    expect(second.data.bank.slug).toBe('test-bank');
  });

  it('needs the customer\'s first name, last name and phone: given on the call they complete the customer', async () => {
    const bare = (await harness.api.post('/customer', { email: 'bare@example.com' })).data;
    const refused = await harness.api.post('/dedicated_account', { customer: bare.customer_code });
    expect(refused).toMatchObject({ httpStatus: 400, type: 'validation_error', code: 'missing_params' });
    const partial = await harness.api.post('/dedicated_account', { customer: bare.customer_code, first_name: 'Bare', last_name: 'Bones' });
    expect(partial.httpStatus).toBe(400);
    const created = await harness.api.post('/dedicated_account', { customer: bare.id, first_name: 'Bare', last_name: 'Bones', phone: '+2348011111111' });
    expect(created.data).toMatchObject({
      account_name: 'SIM/BARE BONES',
      customer: { customer_code: bare.customer_code, first_name: 'Bare', last_name: 'Bones', phone: '+2348011111111' },
      assignment: { assignee_type: 'Customer', expired: false },
    });
  });

  it('rejects unknown customers (404) and unsupported banks (400)', async () => {
    expect((await harness.api.post('/dedicated_account', { customer: 'CUS_nope' })).httpStatus).toBe(404);
    const code = (await customer()).data.customer_code;
    expect((await harness.live.post('/dedicated_account', { customer: code })).httpStatus).toBe(404);
    expect((await harness.api.post('/dedicated_account', { customer: code, preferred_bank: 'zenith-bank' })).httpStatus).toBe(400);
  });

  it('turns a simulated deposit into a successful dedicated_nuban transaction with a signed charge.success', async () => {
    const code = (await customer()).data.customer_code;
    const account = await harness.api.post('/dedicated_account', { customer: code });
    const accountNumber = account.data.account_number as string;

    const deposit = await harness.api.post(`/sim/dedicated_accounts/${accountNumber}/deposits`, {
      amount: 10_000_00,
      sender_name: 'BOLA ADE',
    });
    expect(deposit.httpStatus).toBe(200);
    expect(deposit.data).toMatchObject({ status: 'success', channel: 'dedicated_nuban', amount: 10_000_00, currency: 'NGN', fees: 250_00 });

    await harness.sim.idle();
    const [callback] = harness.receiver.events('charge.success');
    expect(callback.headers['x-paystack-signature']).toBe(signCallbackBody(callback.rawBody, TEST_SECRET));
    expect(callback.data).toMatchObject({
      reference: deposit.data.reference,
      channel: 'dedicated_nuban',
      customer: { customer_code: code, email: 'bola@example.com' },
      authorization: {
        channel: 'dedicated_nuban',
        reusable: false,
        sender_name: 'BOLA ADE',
        receiver_bank_account_number: accountNumber,
      },
      dedicated_account: { account_number: accountNumber, bank: { slug: 'test-bank' } },
      metadata: { receiver_account_number: accountNumber },
    });
  });

  it('answers 404 for deposits into unknown or foreign accounts', async () => {
    const code = (await customer()).data.customer_code;
    const accountNumber = (await harness.api.post('/dedicated_account', { customer: code })).data.account_number;
    expect((await harness.api.post('/sim/dedicated_accounts/9999999999/deposits', { amount: 100 })).httpStatus).toBe(404);
    expect((await harness.live.post(`/sim/dedicated_accounts/${accountNumber}/deposits`, { amount: 100 })).httpStatus).toBe(404);
  });
});
