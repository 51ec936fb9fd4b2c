import { Amount } from '@gateway/platform';
import { type TestGateway, startGateway } from '../support/gateway';
import { http, type HttpResult } from '../support/http';
import { createMerchant } from '../support/merchants';
import { buyer, paidPayment, schedulerEnvFor, startPaymentsHarness, type PaymentsHarness } from '../support/payments';
import { timeoutFor, trials } from './trials';

const CONCURRENT = 32;
const PAYMENT = '100000';
const REFUND = '4000';

/**
 * Reliability row 4 (overdraw): per trial a new account is paid ₦100,000 once (₦97,990 lands in
 * its wallet after the ₦10 platform and ₦2,000 provider fees), then 32 refunds of ₦4,000 each are
 * asked at once, alternating between two API instances on one database. The payment could take
 * 25 of them, the wallet only 24: exactly 24 are served, the rest refused with 422
 * `insufficient_wallet_balance`, and the wallet ends at ₦1,990 — never below zero.
 */
describe('reliability: no overdraw under concurrent refunds across two API instances', () => {
  let h: PaymentsHarness;
  let second: TestGateway;

  beforeAll(async () => {
    h = await startPaymentsHarness({}, { ownDatabase: true });
    const { ENCRYPTION_KEYS: _schedulerKeys, ...shared } = schedulerEnvFor(h);
    second = await startGateway(shared);
  });
  afterAll(async () => {
    await second?.close();
    await h?.close();
  });

  const available = async (key: string): Promise<Amount> => {
    const balance = (await http(h.gateway.baseUrl, 'GET', '/api/v1/wallet/balance?currency=NGN', { token: key })).body.data as { available_balance: number };
    return Amount.parse(String(balance.available_balance));
  };

  it(`${trials(200)} trials of ${CONCURRENT} concurrent refunds on one wallet: exactly the capacity served, never below zero`, async () => {
    for (let trial = 0; trial < trials(200); trial++) {
      const merchant = await createMerchant(h.gateway);
      const paid = await paidPayment(h.gateway, merchant, { amount: Number(PAYMENT), email: buyer() });
      const reference = paid.body.data.reference as string;
      await http(h.gateway.baseUrl, 'POST', '/api/v1/payments/verify', { token: merchant.key, body: { reference } });
      const funded = await available(merchant.key);
      const capacity = Number(funded.toMinor() / Amount.parse(REFUND).toMinor());

      const instances = [h.gateway, second];
      const answers: HttpResult[] = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, i) =>
          http(instances[i % 2].baseUrl, 'POST', '/api/v1/refunds', { token: merchant.key, body: { payment_reference: reference, amount: Number(REFUND) } }),
        ),
      );
      const served = answers.filter((a) => a.status === 201).length;
      const refused = answers.filter((a) => a.status === 422 && a.body.code === 'insufficient_wallet_balance').length;
      const left = await available(merchant.key);
      expect([trial, served, refused, left.isNegative()]).toEqual([trial, capacity, CONCURRENT - capacity, false]);
      expect([trial, left.toString()]).toEqual([trial, funded.minus(Amount.fromMinor(BigInt(capacity) * Amount.parse(REFUND).toMinor())).toString()]);
    }
  }, timeoutFor(trials(200), 5_000));
});
