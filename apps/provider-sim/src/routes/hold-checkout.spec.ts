import { TEST_CARDS } from '../test-cards';
import { payOnCheckout, startHarness, uniqueReference, type Harness } from '../../test/harness';

describe('authorize-only hosted checkout (POST /preauthorization/initialize, a simulator extension)', () => {
  let harness: Harness;

  beforeEach(async () => {
    harness = await startHarness();
  });

  afterEach(async () => {
    await harness.close();
  });

  const open = (reference: string, amount = 7_500_00, email = 'new@example.com') =>
    harness.api.post('/preauthorization/initialize', { reference, email, amount, currency: 'NGN' });

  it('opens a checkout whose page asks to authorize (not pay), the hold pending and not capturable', async () => {
    const reference = uniqueReference('hold');
    const opened = await open(reference);
    expect([opened.httpStatus, opened.message]).toEqual([200, 'Authorization URL created']);
    expect(opened.data).toMatchObject({ reference, authorization_url: `${harness.baseUrl}/checkout/${opened.data.access_code}` });

    const html = await (await fetch(opened.data.authorization_url)).text();
    expect(html).toContain('Amount to authorize');
    expect(html).toContain('id="pay-button">Authorize ₦7,500.00');
    expect(html).toContain(`action="/checkout/${opened.data.access_code}/pay"`);

    expect((await harness.api.get(`/preauthorization/${reference}`)).data).toMatchObject({ reference, status: 'pending', authorization: {}, authorized_at: null });
    const capture = await harness.api.post('/preauthorization/capture', { reference });
    expect([capture.httpStatus, capture.message]).toEqual([400, expect.stringContaining('not authorized')]);
  });

  it('the same initialize again answers the same checkout; a different one under the reference is a duplicate', async () => {
    const reference = uniqueReference('hold');
    const first = await open(reference);
    const again = await open(reference);
    expect(again.data.access_code).toBe(first.data.access_code);
    const other = await open(reference, 1_00);
    expect([other.httpStatus, other.data]).toEqual([400, undefined]);
    expect(other.message).toBe('Duplicate Transaction Reference');
  });

  it('authorizing with the success card places a hold (no charge), saves the card, and sends a signed callback; it captures like any hold', async () => {
    const reference = uniqueReference('hold');
    const { data } = await open(reference);
    const page = await payOnCheckout(harness.baseUrl, data.access_code, TEST_CARDS[0].number);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-status="authorized"');

    const hold = (await harness.api.get(`/preauthorization/${reference}`)).data;
    expect(hold).toMatchObject({ status: 'authorized', amount: 7_500_00, authorization: { reusable: true, last4: '4081' }, authorized_at: expect.any(String) });
    // A hold, not a charge: there is no transaction under the reference until it is captured.
    expect((await harness.api.get(`/transaction/verify/${reference}`)).httpStatus).toBe(404);
    await harness.sim.idle();
    const callbacks = harness.receiver.events('preauthorization.authorized').filter((e) => e.data['reference'] === reference);
    expect(callbacks).toHaveLength(1);
    expect(callbacks[0].data).toMatchObject({ status: 'authorized', authorization: { authorization_code: hold.authorization.authorization_code } });

    // Paying the page again changes nothing.
    await (await payOnCheckout(harness.baseUrl, data.access_code, TEST_CARDS[0].number)).text();
    await harness.sim.idle();
    expect(harness.receiver.events('preauthorization.authorized').filter((e) => e.data['reference'] === reference)).toHaveLength(1);

    const captured = await harness.api.post('/preauthorization/capture', { reference, amount: 5_000_00 });
    expect(captured.data).toMatchObject({ reference, status: 'success', amount: 5_000_00, channel: 'preauth' });
    // The saved card can be held again for this customer.
    const reserved = await harness.api.post('/preauthorization/reserve_authorization', {
      reference: uniqueReference('hold'),
      authorization_code: hold.authorization.authorization_code,
      email: 'new@example.com',
      amount: 1_000_00,
    });
    expect(reserved.data).toMatchObject({ status: 'authorized' });
  });

  it('a declined card leaves the hold pending, the page offering another card', async () => {
    const reference = uniqueReference('hold');
    const { data } = await open(reference);
    const declined = await payOnCheckout(harness.baseUrl, data.access_code, TEST_CARDS[1].number);
    expect(await declined.text()).toContain('Authorization failed: Declined');
    expect((await harness.api.get(`/preauthorization/${reference}`)).data.status).toBe('pending');
    expect(await (await fetch(data.authorization_url)).text()).toContain('Your last attempt failed: Declined');
    await harness.sim.idle();
    expect(harness.receiver.events('preauthorization.authorized')).toHaveLength(0);
  });

  it('releasing a pending checkout closes it: the page is gone and it can no longer be authorized', async () => {
    const reference = uniqueReference('hold');
    const { data } = await open(reference);
    const released = await harness.api.post('/preauthorization/release', { reference });
    expect(released.data).toEqual({ id: expect.any(Number), status: 'released', reference });
    expect((await fetch(data.authorization_url)).status).toBe(404);
    expect((await payOnCheckout(harness.baseUrl, data.access_code, TEST_CARDS[0].number)).status).toBe(404);
    expect((await harness.api.get(`/preauthorization/${reference}`)).data.status).toBe('released');
  });

  it('is per account: the live key does not see a test checkout', async () => {
    const reference = uniqueReference('hold');
    await open(reference);
    expect((await harness.live.get(`/preauthorization/${reference}`)).httpStatus).toBe(400);
  });
});
