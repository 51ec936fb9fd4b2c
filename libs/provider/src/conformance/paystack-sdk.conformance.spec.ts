import * as http from 'node:http';
import type * as Https from 'node:https';
import { createProviderSimulator, type ProviderSimulator } from '@gateway/provider-sim';

/**
 * Conformance, part 4: a client nobody here wrote. Paystack's official Node SDK
 * (`@paystack/paystack-sdk` 1.2.0 — 1.2.1, the latest, is published without its built files)
 * drives the operations the gateway uses against the simulator and must accept every answer.
 *
 * The SDK always calls https://api.paystack.co through `https.request`; the test routes those
 * requests, unchanged, to the simulator over plain HTTP (installed before the SDK is loaded: it
 * keeps its own reference to `https`). The SDK's own code builds and sends
 * them: no content type, amounts as strings where its types say so, PUT for resolve, its query
 * strings. It has no preauthorization calls: holds are covered by the documented payloads
 * (./adapter-requests.conformance.spec.ts) and the simulator checks (./simulator.conformance.spec.ts).
 */

/** The SDK's answers: `{status, message, data}` as parsed JSON (its `Response` model). */
interface SdkResponse {
  status?: boolean;
  message?: string;
  data?: Record<string, unknown>;
}
type Call = (parameters: Record<string, unknown>) => Promise<SdkResponse>;
type Resource = Record<string, Call>;

describe('conformance: the official Paystack Node SDK against the simulator', () => {
  const SECRET = 'sk_test_paystack_sdk';
  let sim: ProviderSimulator;
  let paystack: Record<'transaction' | 'refund' | 'verification' | 'transferrecipient' | 'transfer' | 'customer' | 'dedicatedvirtualaccount' | 'dispute', Resource>;
  let routed: jest.SpyInstance;

  beforeAll(async () => {
    sim = createProviderSimulator({ secretKeys: [SECRET, 'sk_live_paystack_sdk'], transferDelayMs: 0 });
    const simulator = new URL(await sim.listen());
    const plain = http.request;
    // The module object itself (an `import * as` binding is a copy): the one the SDK will require.
    const https = jest.requireActual<typeof Https>('node:https');
    routed = jest.spyOn(https, 'request').mockImplementation(((url: string | URL, options: http.RequestOptions, callback?: (response: http.IncomingMessage) => void) => {
      expect(String(url)).toBe('https://api.paystack.co');
      return plain({ ...options, protocol: 'http:', hostname: simulator.hostname, port: simulator.port }, callback);
    }) as unknown as typeof Https.request);
    const { Paystack } = await import('@paystack/paystack-sdk');
    paystack = new Paystack(SECRET) as unknown as typeof paystack;
  });
  afterAll(async () => {
    routed.mockRestore();
    await sim.close();
  });

  /** The SDK accepted the answer: parsed, `status: true`, with data. */
  const accepted = (answer: SdkResponse) => {
    expect(answer).toMatchObject({ status: true, message: expect.any(String), data: expect.anything() });
    return answer.data as Record<string, unknown>;
  };

  const reference = `sdk-${Date.now()}`;
  let authorizationCode = '';

  it('transaction.initialize / verify / chargeAuthorization', async () => {
    const initialized = accepted(await paystack.transaction.initialize({ email: 'ada@example.com', amount: 500000, reference, metadata: JSON.stringify({ order: 7 }) }));
    expect(initialized).toMatchObject({ reference, access_code: expect.any(String) });
    await fetch(`${sim.url()}/sim/transactions/${reference}/complete`, { method: 'POST', headers: { authorization: `Bearer ${SECRET}` } });
    const verified = accepted(await paystack.transaction.verify({ reference }));
    expect(verified).toMatchObject({ status: 'success', amount: 500000, metadata: { order: 7 } });
    authorizationCode = (verified['authorization'] as { authorization_code: string }).authorization_code;
    const charged = accepted(await paystack.transaction.chargeAuthorization({ email: 'ada@example.com', amount: 100000, authorization_code: authorizationCode, reference: `${reference}-c` }));
    expect(charged['status']).toBe('success');
    // A refusal is a parsed answer too.
    expect(await paystack.transaction.chargeAuthorization({ email: 'ada@example.com', amount: 100000, authorization_code: authorizationCode, reference: `${reference}-c` })).toMatchObject({
      status: false,
      message: 'Duplicate Transaction Reference',
    });
  });

  it('refund.create', async () => {
    expect(accepted(await paystack.refund.create({ transaction: reference, amount: 1000 }))).toMatchObject({ status: 'pending', amount: 1000 });
  });

  let recipient = '';
  it('verification.fetchBanks (by country, cursor pages)', async () => {
    const first = await paystack.verification.fetchBanks({ country: 'nigeria', use_cursor: true, perPage: 3 });
    expect(first).toMatchObject({ status: true });
    expect(first.data).toHaveLength(3);
  });

  it('verification.resolveAccountNumber, and its refusal (strings: the number its types ask for would lose the leading zero)', async () => {
    expect(accepted(await paystack.verification.resolveAccountNumber({ account_number: '0001234567', bank_code: '058' }))).toEqual({
      account_number: '0001234567',
      account_name: expect.stringMatching(/^[A-Z ]+$/),
      bank_id: expect.any(Number),
    });
    expect(await paystack.verification.resolveAccountNumber({ account_number: '9999999999', bank_code: '058' })).toMatchObject({
      status: false,
      message: 'Could not resolve account name. Check parameters or try again.',
    });
  });

  it('transferrecipient.create / transfer.initiate / transfer.verify (amount as a string, as its types have it)', async () => {
    recipient = accepted(await paystack.transferrecipient.create({ type: 'nuban', name: 'John Doe', account_number: '0001234567', bank_code: '058', currency: 'NGN' }))['recipient_code'] as string;
    const transferReference = `acv_${Date.now()}_sdk_transfer`;
    const queued = accepted(await paystack.transfer.initiate({ source: 'balance', amount: '100000', recipient, reference: transferReference, reason: 'Bonus' }));
    expect(queued).toMatchObject({ reference: transferReference, amount: 100000 });
    await sim.idle();
    expect(accepted(await paystack.transfer.verify({ reference: transferReference }))).toMatchObject({ status: 'success' });
  });

  it('transfer.finalize releases a transfer waiting for its OTP', async () => {
    sim.setKnobs({ transferOtp: true });
    try {
      const otp = accepted(await paystack.transfer.initiate({ source: 'balance', amount: '5000', recipient, reference: `acv_${Date.now()}_sdk_with_otp` }));
      expect(otp['status']).toBe('otp');
      expect(accepted(await paystack.transfer.finalize({ transfer_code: otp['transfer_code'], otp: '123456' }))).toMatchObject({ status: 'pending' });
    } finally {
      sim.setKnobs({ transferOtp: false });
    }
  });

  it('customer.create / dedicatedvirtualaccount.create', async () => {
    const customer = accepted(await paystack.customer.create({ email: `sdk-${Date.now()}@example.com`, first_name: 'Zero', last_name: 'Sum', phone: '+2348123456789' }));
    const account = accepted(await paystack.dedicatedvirtualaccount.create({ customer: customer['customer_code'], preferred_bank: 'wema-bank' }));
    expect(account).toMatchObject({ account_number: expect.stringMatching(/^\d{10}$/), bank: { slug: 'wema-bank' } });
  });

  it('dispute.evidence / uploadUrl / resolve (PUT) / fetch', async () => {
    const opened = await (await fetch(`${sim.url()}/sim/disputes`, { method: 'POST', headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }, body: JSON.stringify({ transaction: reference }) })).json();
    const id = (opened as { data: { id: number } }).data.id;
    const evidence = accepted(await paystack.dispute.evidence({ id, customer_email: 'ada@example.com', customer_name: 'Ada', customer_phone: '0802345167', service_details: 'Delivered' }));
    const upload = accepted(await paystack.dispute.uploadUrl({ id }));
    expect((await fetch(upload['signedUrl'] as string, { method: 'PUT', body: '%PDF' })).status).toBe(200);
    const resolved = accepted(await paystack.dispute.resolve({ id, resolution: 'declined', message: 'Delivered', refund_amount: 0, uploaded_filename: upload['fileName'], evidence: evidence['id'] }));
    expect(resolved).toMatchObject({ id, status: 'awaiting-bank-feedback' });
    expect(accepted(await paystack.dispute.fetch({ id }))).toMatchObject({ id });
  });
});
