import type { IncomingMessage } from 'node:http';
import { Amount } from '@gateway/platform';
import { type TestGateway, startGateway } from '../support/gateway';
import { http, type HttpResult } from '../support/http';
import { createMerchant, type TestMerchant } from '../support/merchants';
import { buyer, customerWithSavedCard, paidPayment, schedulerEnvFor, startPaymentsHarness, type PaymentsHarness } from '../support/payments';
import { newIdempotencyKey } from '../support/idempotency-keys';
import { availableBalance, fundedLiveMerchant, savedRecipient } from './live-wallet';
import { timeoutFor, trials } from './trials';

const REQUESTS_PER_TRIAL = 20;

/**
 * Reliability row 1 (idempotency races): in each trial 20 requests with one Idempotency-Key are
 * sent at once, alternating between two API instances on one database. One effect each: one
 * object in the gateway, ONE call at the provider simulator (counted at its HTTP server), and
 * every answer is the original (replayed byte for byte) or 409 `idempotency_key_in_progress`.
 * Initialize, charge and refund in test mode; transfers in live mode, the only mode they exist in.
 */
describe('reliability: idempotency races across two API instances', () => {
  let h: PaymentsHarness;
  let second: TestGateway;
  let merchant: TestMerchant;
  const providerCalls = new Map<string, number>();
  const callsTo = (call: string) => providerCalls.get(call) ?? 0;

  beforeAll(async () => {
    h = await startPaymentsHarness({}, { ownDatabase: true });
    // The same database, simulator and provider secrets as the first instance (and, like it, the test encryption keys).
    const { ENCRYPTION_KEYS: _schedulerKeys, ...shared } = schedulerEnvFor(h);
    second = await startGateway(shared);
    merchant = await createMerchant(h.gateway);
    h.sim.app.server.on('request', (request: IncomingMessage) => {
      const call = `${request.method} ${(request.url ?? '').split('?')[0]}`;
      providerCalls.set(call, callsTo(call) + 1);
    });
  });
  afterAll(async () => {
    await second?.close();
    await h?.close();
  });

  /** 20 requests with one key at once, alternating instances; returns the answers. */
  async function race(path: string, body: unknown, token = merchant.key): Promise<HttpResult[]> {
    const key = newIdempotencyKey('race');
    const instances = [h.gateway, second];
    return Promise.all(
      Array.from({ length: REQUESTS_PER_TRIAL }, (_, i) => http(instances[i % 2].baseUrl, 'POST', `/api/v1${path}`, { token, body, headers: { 'Idempotency-Key': key } })),
    );
  }

  /** Every answer is the one original (same status and bytes) or 409 in progress; returns the original. */
  function oneOriginal(answers: HttpResult[], status: number): HttpResult {
    const originals = answers.filter((a) => a.status !== 409);
    const inProgress = answers.filter((a) => a.status === 409);
    expect(inProgress.every((a) => a.body.code === 'idempotency_key_in_progress')).toBe(true);
    expect(originals.length).toBeGreaterThanOrEqual(1);
    expect(new Set(originals.map((a) => `${a.status} ${a.text}`)).size).toBe(1);
    expect(originals[0].status).toBe(status);
    return originals[0];
  }

  it(`initialize: ${trials(200)} trials of 20 same-key requests → one payment and one provider call each`, async () => {
    for (let trial = 0; trial < trials(200); trial++) {
      const before = callsTo('POST /transaction/initialize');
      const answers = await race('/payments/initialize', { amount: 1000 + trial, email: buyer() });
      const original = oneOriginal(answers, 201);
      expect([trial, callsTo('POST /transaction/initialize') - before]).toEqual([trial, 1]);
      const fetched = await http(second.baseUrl, 'GET', `/api/v1/payments/${original.body.data.reference}`, { token: merchant.key });
      expect(fetched.status).toBe(200);
    }
  }, timeoutFor(trials(200), 3_000));

  it(`charge: ${trials(200)} trials of 20 same-key charges of a saved card → one charge and one provider call each`, async () => {
    const { email, code } = await customerWithSavedCard(h, undefined, merchant);
    const references = new Set<string>();
    for (let trial = 0; trial < trials(200); trial++) {
      const before = callsTo('POST /transaction/charge_authorization');
      const answers = await race('/payments/charge', { authorization_code: code, email, amount: 500 + trial });
      const original = oneOriginal(answers, 201);
      expect([trial, callsTo('POST /transaction/charge_authorization') - before]).toEqual([trial, 1]);
      references.add(original.body.data.reference as string);
    }
    expect(references.size).toBe(trials(200));
  }, timeoutFor(trials(200), 3_000));

  it(`refund: ${trials(200)} trials of 20 same-key refunds → one refund and one provider call each`, async () => {
    for (let trial = 0; trial < trials(200); trial++) {
      const paid = await paidPayment(h.gateway, merchant, { amount: 2000, email: buyer() });
      const reference = paid.body.data.reference as string;
      await http(h.gateway.baseUrl, 'POST', '/api/v1/payments/verify', { token: merchant.key, body: { reference } });
      const before = callsTo('POST /refund');
      const answers = await race('/refunds', { payment_reference: reference, amount: 1500 });
      oneOriginal(answers, 201);
      expect([trial, callsTo('POST /refund') - before]).toEqual([trial, 1]);
      const refunds = await http(second.baseUrl, 'GET', `/api/v1/refunds?payment=${reference}`, { token: merchant.key });
      expect([trial, refunds.body.data.filter((r: { payment_reference: string }) => r.payment_reference === reference).length]).toEqual([trial, 1]);
    }
  }, timeoutFor(trials(200), 3_000));

  it(`transfer: ${trials(200)} trials of 20 same-key transfers (live) → one transfer, one provider call and one wallet debit each`, async () => {
    const { merchant: live } = await fundedLiveMerchant(h, 1_000_000);
    const funded = await availableBalance(h.gateway, live.key);
    let paidOut = Amount.zero();
    for (let trial = 0; trial < trials(200); trial++) {
      // A recipient of the trial's own, so its transfers are exactly this trial's; saved first, so the payout is the transfer's only provider call.
      const recipient = await savedRecipient(h.gateway, live.key);
      const amount = Amount.parse(String(100 + trial));
      const before = callsTo('POST /transfer');
      const answers = await race('/transfers', { source: 'wallet', amount: amount.toNumber(), recipient }, live.key);
      const original = oneOriginal(answers, 201);
      expect([trial, callsTo('POST /transfer') - before]).toEqual([trial, 1]);
      const transfers = await http(second.baseUrl, 'GET', `/api/v1/transfers?recipient=${recipient}`, { token: live.key });
      expect([trial, transfers.body.data.map((t: { reference: string }) => t.reference)]).toEqual([trial, [original.body.data.reference]]);
      // The available balance moves once, by the amount, when the transfer is made; the bank's answer later moves only the reservation.
      paidOut = paidOut.plus(amount);
      expect([trial, (await availableBalance(second, live.key)).toString()]).toEqual([trial, funded.minus(paidOut).toString()]);
    }
  }, timeoutFor(trials(200), 3_000));
});
