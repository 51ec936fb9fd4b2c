import { createHmac } from 'node:crypto';
import { Amount } from '@gateway/platform';
import { Logger } from '@nestjs/common';
import { PaystackHttpProvider } from '../paystack/paystack-http.provider';
import { ProviderRejectedError } from '../provider-rejected.error';
import { DocumentedProvider, ok, refusal } from './support/documented-provider';
import { DISPUTE, PAID_TRANSACTION, REFUND_EVENT, SOURCES, TRANSFER_EVENT } from './support/paystack-documentation';
import { shapeErrors, type Shape } from './support/shape';

/**
 * Conformance, part 2: Paystack's error bodies are read by `code` and `type` — never by message —
 * and every webhook the gateway consumes is accepted in its documented shape.
 */
describe('conformance: error bodies and webhooks as Paystack documents them', () => {
  const SECRET = 'sk_test_conformance_errors';
  let paystack: DocumentedProvider;
  let adapter: PaystackHttpProvider;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    paystack = await new DocumentedProvider().start();
    const account = { baseUrl: paystack.url, secretKey: SECRET, profile: 'paystack' as const, currencies: ['NGN'] };
    adapter = new PaystackHttpProvider({ accounts: { test: account, live: { ...account, secretKey: 'sk_live_conformance_errors' } }, timeoutMs: 5_000 });
  });
  afterEach(() => paystack.clear());
  afterAll(() => paystack.close());

  const charge = { reference: 'chg-dup-1', authorizationCode: 'AUTH_dalhwqi5vw', email: 'ada@example.com', amount: Amount.parse('352.47'), currency: 'NGN' as const };
  const charged = {
    id: 4099490251,
    domain: 'test',
    status: 'success',
    reference: 'chg-dup-1',
    amount: 35247,
    gateway_response: 'Approved',
    paid_at: '2024-08-22T10:53:49.000Z',
    channel: 'card',
    currency: 'NGN',
    fees: 10247,
    authorization: { authorization_code: 'AUTH_dalhwqi5vw', reusable: true },
    customer: { email: 'ada@example.com', customer_code: 'CUS_1rkzaqsv4rrhqo6' },
  };

  describe(`error bodies — ${SOURCES.errorsIntro}; ${SOURCES.openapi} Error; ${SOURCES.apiErrors}`, () => {
    it('a duplicate is recognised by code duplicate_reference, whatever the message says (api-errors.json lists several wordings)', async () => {
      paystack.on('POST', /^\/transaction\/charge_authorization$/, refusal(400, 'Duplicate charge request for reference', { type: 'validation_error', code: 'duplicate_reference', nextStep: 'Try and create the Transaction or Charge with a new reference' }));
      paystack.on('GET', /^\/transaction\/verify\/chg-dup-1$/, ok('Verification successful', charged));
      expect(await adapter.chargeAuthorization('test', charge)).toMatchObject({ reference: 'chg-dup-1', status: 'success' });
      expect(paystack.made('GET', /^\/transaction\/verify\//)).toHaveLength(1);
    });

    it('the message "Duplicate Transaction Reference" without the code is not taken for a duplicate: the refusal stands, nothing is looked up', async () => {
      paystack.on('POST', /^\/transaction\/charge_authorization$/, refusal(400, 'Duplicate Transaction Reference'));
      paystack.on('GET', /^\/transaction\/verify\/chg-dup-1$/, ok('Verification successful', charged));
      await expect(adapter.chargeAuthorization('test', charge)).rejects.toMatchObject({ providerStatus: 400, providerCode: null });
      expect(paystack.made('GET', /^\/transaction\/verify\//)).toHaveLength(0);
    });

    it('a refusal carries the documented type, code and meta.nextStep', async () => {
      paystack.on('POST', /^\/transfer$/, refusal(400, 'Recipient specified is invalid', { type: 'validation_error', code: 'invalid_transfer_recipient', nextStep: 'Provide a valid recipient' }));
      const attempt = adapter.initiateTransfer('test', { reference: 'acv_9ee55786-2323-4760-98e2-6380c9cb3f68', amount: Amount.parse('1.00'), currency: 'NGN', recipientCode: 'RCP_x' });
      await expect(attempt).rejects.toBeInstanceOf(ProviderRejectedError);
      await expect(attempt).rejects.toMatchObject({ providerStatus: 400, providerType: 'validation_error', providerCode: 'invalid_transfer_recipient', nextStep: 'Provide a valid recipient', providerMessage: 'Recipient specified is invalid' });
    });

    it('a reserve refused with type validation_error is our mistake (a rejection); with processor_error the issuer refused (a failed hold)', async () => {
      const input = { reference: 'pi-1', authorizationCode: 'AUTH_x', email: 'ada@example.com', amount: Amount.parse('10.00'), currency: 'NGN' as const };
      paystack.on('POST', /^\/preauthorization\/reserve_authorization$/, refusal(400, 'Invalid Authorization Code', { type: 'validation_error', code: 'invalid_params', nextStep: 'Ensure that the value(s) you are passing are valid.' }));
      await expect(adapter.reserveAuthorization('test', input)).rejects.toMatchObject({ providerType: 'validation_error' });
      paystack.on('POST', /^\/preauthorization\/reserve_authorization$/, refusal(400, 'Preauthorization unsuccessful', { type: 'processor_error', code: 'unknown', nextStep: 'Try again later' }));
      expect(await adapter.reserveAuthorization('test', input)).toMatchObject({ status: 'failed' });
    });

    it('401 {status: false, message: "Invalid key"} (openapi components/responses/Unauthorized) is our credentials: provider_error, never a refusal', async () => {
      paystack.on('GET', /^\/transaction\/verify\//, refusal(401, 'Invalid key'));
      const attempt = adapter.verifyTransaction('test', 'anything');
      await expect(attempt).rejects.toMatchObject({ code: 'provider_error' });
      await expect(attempt).rejects.not.toBeInstanceOf(ProviderRejectedError);
    });
  });

  describe(`webhooks — ${SOURCES.webhooks}`, () => {
    const deliver = (event: string, data: unknown) => {
      const raw = Buffer.from(JSON.stringify({ event, data }));
      return adapter.parseWebhook(raw, createHmac('sha512', SECRET).update(raw).digest('hex'));
    };
    const documented = (data: unknown, shape: Shape) => {
      expect(shapeErrors(data, shape)).toEqual([]);
      return data;
    };
    const customer = { id: 68324, first_name: 'BoJack', last_name: 'Horseman', email: 'bojack@horseman.com', customer_code: 'CUS_qo38as2hpsgk2r0', phone: null, metadata: null, risk_action: 'default' };

    it('charge.success: fees null, metadata 0, an authorization without reusable or signature — read, amount in kobo', () => {
      const data = {
        id: 302961,
        domain: 'live',
        status: 'success',
        reference: 'qTPrJoy9Bx',
        amount: 10000,
        message: null,
        gateway_response: 'Approved by Financial Institution',
        paid_at: '2016-09-30T21:10:19.000Z',
        created_at: '2016-09-30T21:09:56.000Z',
        channel: 'card',
        currency: 'NGN',
        ip_address: '41.242.49.37',
        metadata: 0,
        fees: null,
        customer,
        authorization: { authorization_code: 'AUTH_f5rnfq9p', bin: '539999', last4: '8877', exp_month: '08', exp_year: '2020', card_type: 'mastercard DEBIT', bank: 'Guaranty Trust Bank', country_code: 'NG', brand: 'mastercard', account_name: 'BoJack Horseman' },
        plan: {},
      };
      const webhook = deliver('charge.success', data);
      expect(webhook).toMatchObject({ mode: 'test', kind: 'charge', data: { reference: 'qTPrJoy9Bx', status: 'success', fee: null, customerCode: 'CUS_qo38as2hpsgk2r0' } });
      expect(webhook?.kind === 'charge' && [webhook.data.amount.toString(), webhook.data.authorization?.reusable]).toEqual(['100.00', false]);
      expect(shapeErrors({ ...data, fees: 0, authorization: { ...data.authorization, channel: 'card', reusable: true, signature: null } }, PAID_TRANSACTION)).toEqual([]);
    });

    const recipient = { active: true, currency: 'NGN', description: null, domain: 'test', email: 'test@email.com', id: 13584206, integration: 100043, metadata: null, name: 'Ted Lasso', recipient_code: 'RCP_cjcua8itre45gs', type: 'nuban', is_deleted: false, details: { authorization_code: null, account_number: '0123456789', account_name: 'Ted Lasso', bank_code: '011', bank_name: 'First Bank of Nigeria' } };
    it.each([
      ['transfer.success', 'success', null],
      ['transfer.failed', 'failed', null],
      ['transfer.reversed', 'reversed', '2020-03-24T07:14:00.000Z'],
    ])('%s: the transfer under our reference, status %s', (event, status, transferredAt) => {
      const data = documented(
        {
          amount: 200000,
          currency: 'NGN',
          domain: 'test',
          failures: null,
          id: 69123462,
          integration: { id: 100043, is_live: true, business_name: 'Paystack' },
          reason: 'Enjoy',
          reference: '1976435206',
          source: 'balance',
          source_details: null,
          status,
          titan_code: null,
          transfer_code: 'TRF_chs98y5rykjb47w',
          transferred_at: transferredAt,
          recipient,
          session: { provider: 'nip', id: '74849400998877667' },
          created_at: '2021-04-12T15:30:15.000Z',
          updated_at: '2021-04-12T15:41:21.000Z',
        },
        TRANSFER_EVENT,
      );
      const webhook = deliver(event, data);
      expect(webhook).toMatchObject({ kind: 'transfer', event, data: { reference: '1976435206', status, providerTransferCode: 'TRF_chs98y5rykjb47w' } });
      expect(webhook?.kind === 'transfer' && webhook.data.amount.toString()).toBe('2000.00');
    });

    const dispute = (status: string, resolution: string | null, resolvedAt: string | null) =>
      documented(
        {
          id: 358950,
          refund_amount: 5800,
          currency: 'NGN',
          status,
          resolution,
          domain: 'live',
          transaction: { id: 896467688, domain: 'live', status: 'success', reference: 'v3mjfgbnc19v97x', amount: 5800, currency: 'NGN', metadata: '', fees: 53, authorization: {}, customer: { international_format_phone: null }, plan: {}, subaccount: {}, split: {}, requested_amount: 5800 },
          transaction_reference: null,
          category: 'chargeback',
          customer,
          bin: '123456',
          last4: '1234',
          dueAt: '2020-11-25T18:00:00.000Z',
          resolvedAt,
          evidence: null,
          attachments: null,
          note: null,
          history: [{ status: 'pending', by: 'example@test.com', createdAt: '2020-11-24T13:46:57.000Z' }],
          messages: [{ sender: 'example@test.com', body: 'Customer complained about debit without value', createdAt: '2020-11-24T13:46:57.000Z' }],
          created_at: '2020-11-24T13:46:57.000Z',
          updated_at: '2020-11-24T18:00:02.000Z',
        },
        DISPUTE,
      );

    it('charge.dispute.create / .remind: our reference from transaction.reference (transaction_reference is null), camelCase dueAt, the complaint from messages', () => {
      for (const event of ['charge.dispute.create', 'charge.dispute.remind']) {
        const webhook = deliver(event, dispute('awaiting-merchant-feedback', null, null));
        expect(webhook).toMatchObject({ kind: 'dispute', data: { providerId: '358950', transactionReference: 'v3mjfgbnc19v97x', status: 'open', reason: 'Customer complained about debit without value', resolvedAt: null } });
        expect(webhook?.kind === 'dispute' && [webhook.data.amount.toString(), webhook.data.dueAt?.toISOString()]).toEqual(['58.00', '2020-11-25T18:00:00.000Z']);
      }
    });

    it.each([
      ['auto-accepted', 'lost'],
      ['merchant-accepted', 'lost'],
      ['declined', 'won'],
    ])('charge.dispute.resolve with resolution %s → %s, with camelCase resolvedAt', (resolution, status) => {
      const webhook = deliver('charge.dispute.resolve', dispute('resolved', resolution, '2020-11-24T14:00:02.000Z'));
      expect(webhook).toMatchObject({ kind: 'dispute', data: { status } });
      expect(webhook?.kind === 'dispute' && webhook.data.resolvedAt?.toISOString()).toBe('2020-11-24T14:00:02.000Z');
    });

    it('a dispute with null refund_amount and currency (Fetch Dispute sample) takes the transaction\'s', () => {
      const webhook = deliver('charge.dispute.create', { ...(dispute('pending', null, null) as object), refund_amount: null, currency: null });
      expect(webhook?.kind === 'dispute' && [webhook.data.amount.toString(), webhook.data.currency, webhook.data.status]).toEqual(['58.00', 'NGN', 'open']);
    });

    // Issue 12 item 1: no id, the transaction's reference, the processor's refund_reference (null while pending), the amount a string or a number.
    it.each([
      ['refund.processed', { status: 'processed', transaction_reference: 'T2154954_412829_3be32076_6lcg3', refund_reference: '132013318360', amount: '5000', currency: 'NGN', processor: 'mpgs_zen', customer: { first_name: 'Damilola', last_name: 'Kwabena', email: 'damilola@email.com' }, integration: 412829, domain: 'live' }, 'processed', '50.00'],
      ['refund.pending', { status: 'pending', transaction_reference: 'tvunjbbd_412829_4b18075d_c7had', refund_reference: null, amount: '10000', currency: 'NGN', processor: 'instant-transfer', customer: { first_name: 'Drew', last_name: 'Berry', email: 'demo@email.com' }, integration: 412829, domain: 'live' }, 'pending', '100.00'],
      ['refund.processing', { status: 'processing', transaction_reference: 'tvunjbbd_412829_4b18075d_c7had', refund_reference: null, amount: '10000', currency: 'NGN', processor: 'instant-transfer', customer: { first_name: 'Drew', last_name: 'Berry', email: 'demo@email.com' }, integration: 412829, domain: 'live' }, 'pending', '100.00'],
      ['refund.failed', { status: 'failed', transaction_reference: 'T9171231_412325_3be2736c_n6tml', refund_reference: 'TRF_9vgfawjnoz58uxy', amount: 20000, currency: 'NGN', processor: 'instant-transfer', customer: { first_name: 'Tobi', last_name: 'Digz', email: 'tobi@mail.com' }, integration: 412325, domain: 'live' }, 'failed', '200.00'],
    ])(`%s: the refunded transaction's reference, the status and the amount — ${SOURCES.refundEvents}`, (event, data, status, amount) => {
      const webhook = deliver(event, documented(data, REFUND_EVENT));
      expect(webhook).toMatchObject({ mode: 'test', event, kind: 'refund', data: { transactionReference: data.transaction_reference, status, currency: 'NGN', refundReference: data.refund_reference } });
      expect(webhook?.kind === 'refund' && webhook.data.amount?.toString()).toBe(amount);
    });

    it(`preauthorization.* events are authentic but not acted on (holds are read by their calls) — ${SOURCES.snippets('dist/doc/payments/preauthorization/events.js')}`, () => {
      for (const event of ['preauthorization.reserve.success', 'preauthorization.capture.success', 'preauthorization.release.success']) {
        expect(deliver(event, { id: 3099, reference: 'atyntuup5bec03e', status: 'captured', currency: 'ZAR', amount: 1000 })).toEqual({ mode: 'test', event, kind: 'other', data: null });
      }
    });
  });
});
