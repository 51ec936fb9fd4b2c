import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProviderSimulator, type ProviderSimulator } from '@gateway/provider-sim';
import {
  BANK,
  BANK_PAGE_META,
  CAPTURE,
  CUSTOMER_CREATED,
  DEDICATED_ACCOUNT,
  DISPUTE,
  DISPUTE_EVIDENCE,
  DISPUTE_STATUSES,
  ERROR_BODY,
  ERROR_TYPES,
  INITIALIZED,
  PAID_TRANSACTION,
  PREAUTHORIZATION,
  PREAUTHORIZATION_STATUSES,
  RECIPIENT,
  RECIPIENT_TYPE_CURRENCIES,
  REFUND,
  RELEASE,
  RESOLVED_ACCOUNT,
  SOURCES,
  TRANSFER,
  TRANSFER_CREATED,
  TRANSFER_EVENT,
  TRANSFER_STATUSES,
  UNRESOLVABLE_ACCOUNT_MESSAGE,
  UPLOAD_URL,
} from './support/paystack-documentation';
import { shapeErrors, type Shape } from './support/shape';

/**
 * Conformance, part 3: the simulator answers every call the adapter makes, and sends every event
 * the gateway consumes, in the shapes, HTTP statuses and status values Paystack documents — so a
 * test that passes against it would pass against Paystack. Driven over raw HTTP, as any client would.
 */
describe('conformance: the simulator answers as Paystack documents', () => {
  const SECRET = 'sk_test_sim_conformance';
  let sim: ProviderSimulator;
  let receiver: Server;
  const events: Array<{ event: string; data: Record<string, unknown> }> = [];

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        events.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event: string; data: Record<string, unknown> });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    sim = createProviderSimulator({ secretKeys: [SECRET, 'sk_live_sim_conformance'], transferDelayMs: 0, webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` });
    await sim.listen();
  });
  afterAll(async () => {
    await sim.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  interface Answer {
    http: number;
    body: { status: boolean; message: string; data?: Record<string, unknown> & Array<Record<string, unknown>>; meta?: unknown; type?: string; code?: string };
  }
  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(`${sim.url()}${path}`, {
      method,
      headers: { authorization: `Bearer ${SECRET}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { http: response.status, body: (await response.json()) as Answer['body'] };
  };
  const conforms = (answer: Answer, http: number, shape: Shape) => {
    expect(answer.http).toBe(http);
    expect(answer.body).toMatchObject({ status: true, message: expect.any(String) });
    expect(shapeErrors(answer.body.data, shape)).toEqual([]);
    return answer.body.data as Record<string, unknown>;
  };
  const refused = (answer: Answer, http: number) => {
    expect(answer.http).toBe(http);
    expect(shapeErrors(answer.body, ERROR_BODY)).toEqual([]);
    expect(ERROR_TYPES).toContain(answer.body.type);
    return answer.body;
  };

  let reference = '';
  let authorizationCode = '';

  it(`initialize and verify: ${SOURCES.openapi} TransactionInitializeResponse / VerifyResponse; unknown reference 404`, async () => {
    reference = `conf-${Date.now()}`;
    conforms(await call('POST', '/transaction/initialize', { email: 'ada@example.com', amount: 500000, reference }), 200, INITIALIZED);
    await call('POST', `/sim/transactions/${reference}/complete`, { outcome: 'success' });
    const paid = conforms(await call('GET', `/transaction/verify/${reference}`), 200, PAID_TRANSACTION);
    expect(paid['status']).toBe('success');
    authorizationCode = (paid['authorization'] as { authorization_code: string }).authorization_code;
    refused(await call('GET', '/transaction/verify/unknown-reference'), 404);
  });

  it(`charge_authorization; a reused reference is 400 duplicate_reference — ${SOURCES.snippets('dist/api/transactions/charge_authorization/response.json')}; ${SOURCES.openapi} TransactionInitializeBadRequestModel`, async () => {
    const body = { authorization_code: authorizationCode, email: 'ada@example.com', amount: 10000, reference: `${reference}-chg` };
    conforms(await call('POST', '/transaction/charge_authorization', body), 200, PAID_TRANSACTION);
    expect(refused(await call('POST', '/transaction/charge_authorization', body), 400)).toMatchObject({ code: 'duplicate_reference', type: 'validation_error' });
  });

  it(`preauthorization: reserve (status authorized), verify, capture (the transaction), release ({status, reference}); refusals are 400 — ${SOURCES.preauthorization}`, async () => {
    const hold = `${reference}-hold`;
    const reserved = conforms(await call('POST', '/preauthorization/reserve_authorization', { authorization_code: authorizationCode, email: 'ada@example.com', amount: 20000, reference: hold }), 200, PREAUTHORIZATION);
    expect(reserved['status']).toBe('authorized');
    for (const answer of [reserved, conforms(await call('GET', `/preauthorization/${hold}`), 200, PREAUTHORIZATION)]) {
      expect(PREAUTHORIZATION_STATUSES).toContain(answer['status']);
    }
    expect(conforms(await call('POST', '/preauthorization/capture', { reference: hold, currency: 'NGN', amount: 15000 }), 200, CAPTURE)).toMatchObject({ status: 'success', channel: 'preauth' });

    const other = `${reference}-hold2`;
    await call('POST', '/preauthorization/reserve_authorization', { authorization_code: authorizationCode, email: 'ada@example.com', amount: 20000, reference: other });
    const released = conforms(await call('POST', '/preauthorization/release', { reference: other, currency: 'NGN' }), 200, RELEASE);
    expect(released).toEqual({ id: expect.any(Number), status: 'released', reference: other });
    refused(await call('POST', '/preauthorization/release', { reference: 'no-such-hold' }), 400);
    refused(await call('GET', '/preauthorization/no-such-hold'), 400);
  });

  it(`refund: ${SOURCES.snippets('dist/api/refunds/create/response.json')}`, async () => {
    conforms(await call('POST', '/refund', { transaction: reference, amount: 1000 }), 200, REFUND);
  });

  it(`banks: filtered by currency, paged by cursor in meta — ${SOURCES.openapi} bank_list; ${SOURCES.snippets('dist/api/miscellaneous/bank/response.json')}`, async () => {
    const page = await call('GET', '/bank?currency=NGN&use_cursor=true&perPage=2');
    expect(page.http).toBe(200);
    expect(page.body.data).toHaveLength(2);
    for (const bank of page.body.data ?? []) expect(shapeErrors(bank, BANK)).toEqual([]);
    expect(shapeErrors(page.body.meta, BANK_PAGE_META)).toEqual([]);
  });

  it(`resolve account: the documented fields, the number as a string; an account it cannot resolve is 422 with the error body — ${SOURCES.resolveAccount}; ${SOURCES.unresolvableAccount}`, async () => {
    const resolved = conforms(await call('GET', '/bank/resolve?account_number=0001234567&bank_code=058'), 200, RESOLVED_ACCOUNT);
    expect(resolved).toMatchObject({ account_number: '0001234567', account_name: expect.stringMatching(/^[A-Z]+( [A-Z]+)+$/) });
    for (const query of ['account_number=9999999999&bank_code=058', 'account_number=0001234567&bank_code=999']) {
      expect(refused(await call('GET', `/bank/resolve?${query}`), 422)).toMatchObject({ message: UNRESOLVABLE_ACCOUNT_MESSAGE });
    }
  });

  let recipientCode = '';
  it(`transfer recipient: 201; its type pays its currency — ${SOURCES.openapi} transferrecipient_create; ${SOURCES.recipients}`, async () => {
    const created = conforms(await call('POST', '/transferrecipient', { type: 'nuban', name: 'John Doe', account_number: '0001234567', bank_code: '058', currency: 'NGN' }), 201, RECIPIENT);
    expect(RECIPIENT_TYPE_CURRENCIES[created['type'] as string]).toContain(created['currency']);
    recipientCode = created['recipient_code'] as string;
  });

  it(`transfer: initiate (recipient as its id), verify (recipient object), a reused reference is duplicate_reference; statuses are Paystack's — ${SOURCES.openapi} TransferCreateResponse / TransferVerifyResponse`, async () => {
    const transferReference = `acv_${Date.now()}_conformance`;
    const body = { source: 'balance', amount: 100000, recipient: recipientCode, reference: transferReference, reason: 'Bonus' };
    const queued = conforms(await call('POST', '/transfer', body), 200, TRANSFER_CREATED);
    expect(TRANSFER_STATUSES).toContain(queued['status']);
    expect(refused(await call('POST', '/transfer', body), 400).code).toBe('duplicate_reference');
    await sim.idle();
    const verified = conforms(await call('GET', `/transfer/verify/${transferReference}`), 200, TRANSFER);
    expect(TRANSFER_STATUSES).toContain(verified['status']);
    refused(await call('GET', '/transfer/verify/no_such_transfer_reference'), 404);
    expect(refused(await call('POST', '/transfer', { ...body, reference: 'Not_Lowercase_Reference' }), 400).code).toBe('invalid_params');
  });

  it(`transfer with OTP: status otp, then finalize_transfer — ${SOURCES.snippets('dist/doc/transfers/single/initiate-transfer-otp.js')}; ${SOURCES.openapi} TransferFinalize`, async () => {
    sim.setKnobs({ transferOtp: true });
    try {
      const otp = conforms(await call('POST', '/transfer', { source: 'balance', amount: 100000, recipient: recipientCode, reference: `acv_${Date.now()}_with_otp` }), 200, TRANSFER_CREATED);
      expect(otp['status']).toBe('otp');
      conforms(await call('POST', '/transfer/finalize_transfer', { transfer_code: otp['transfer_code'], otp: '123456' }), 200, TRANSFER_CREATED);
      refused(await call('POST', '/transfer/finalize_transfer', { transfer_code: 'TRF_unknown', otp: '123456' }), 400);
    } finally {
      sim.setKnobs({ transferOtp: false });
    }
  });

  it(`transfer reversed by the bank: success, then status "reversed" with transfer.reversed — ${SOURCES.openapi} List Transfers status; ${SOURCES.webhooks}`, async () => {
    const reversing = conforms(await call('POST', '/transferrecipient', { type: 'nuban', name: 'Jon Snow', account_number: '0000000002', bank_code: '011', currency: 'NGN' }), 201, RECIPIENT);
    const transferReference = `acv_${Date.now()}_reversed`;
    conforms(await call('POST', '/transfer', { source: 'balance', amount: 10000, recipient: reversing['recipient_code'], reference: transferReference }), 200, TRANSFER_CREATED);
    await sim.idle();
    const verified = conforms(await call('GET', `/transfer/verify/${transferReference}`), 200, TRANSFER);
    expect(verified['status']).toBe('reversed');
    expect(TRANSFER_STATUSES).toContain(verified['status']);
  });

  it(`customer and dedicated account (first and last name and phone required) — ${SOURCES.openapi} DedicatedNubanCreateResponse; ${SOURCES.dedicatedAccounts}`, async () => {
    const customer = conforms(await call('POST', '/customer', { email: `dva-${Date.now()}@example.com` }), 200, CUSTOMER_CREATED);
    expect(refused(await call('POST', '/dedicated_account', { customer: customer['customer_code'] }), 400).code).toBe('missing_params');
    conforms(await call('POST', '/dedicated_account', { customer: customer['customer_code'], preferred_bank: 'wema-bank', first_name: 'Rhoda', last_name: 'Church', phone: '+2349053267565' }), 200, DEDICATED_ACCOUNT);
  });

  it(`disputes: evidence, upload_url, resolve (PUT) — ${SOURCES.openapi} dispute_evidence / dispute_uploadUrl / dispute_resolve`, async () => {
    const opened = conforms(await call('POST', '/sim/disputes', { transaction: reference, amount: 2000 }), 200, DISPUTE);
    const id = opened['id'] as number;
    const evidence = conforms(await call('POST', `/dispute/${id}/evidence`, { customer_email: 'ada@example.com', customer_name: 'Ada', customer_phone: '0802345167', service_details: 'Delivered' }), 200, DISPUTE_EVIDENCE);
    const upload = conforms(await call('GET', `/dispute/${id}/upload_url?upload_filename=proof.pdf`), 200, UPLOAD_URL);
    expect((await fetch(upload['signedUrl'] as string, { method: 'PUT', body: '%PDF' })).status).toBe(200);
    const resolved = conforms(await call('PUT', `/dispute/${id}/resolve`, { resolution: 'declined', message: 'Delivered', refund_amount: 0, uploaded_filename: upload['fileName'], evidence: evidence['id'] }), 200, DISPUTE);
    expect(DISPUTE_STATUSES).toContain(resolved['status']);
    refused(await call('GET', '/dispute/424242'), 404);
  });

  it(`events: charge.success, transfer.success / .reversed, charge.dispute.* carry the documented payloads — ${SOURCES.webhooks}`, async () => {
    await call('POST', `/sim/disputes/${(await call('POST', '/sim/disputes', { transaction: `${reference}-chg` })).body.data?.['id']}/resolve`, { resolution: 'merchant-accepted' });
    await sim.idle();
    const shapes: Record<string, Shape> = { 'charge.success': PAID_TRANSACTION, 'transfer.success': TRANSFER_EVENT, 'transfer.reversed': TRANSFER_EVENT, 'charge.dispute.create': DISPUTE, 'charge.dispute.resolve': DISPUTE };
    for (const [event, shape] of Object.entries(shapes)) {
      const sent = events.filter((candidate) => candidate.event === event);
      expect([event, sent.length > 0]).toEqual([event, true]);
      for (const { data } of sent) expect([event, shapeErrors(data, shape)]).toEqual([event, []]);
    }
  });
});
