import { Amount } from '@gateway/platform';
import { type TestGateway, startGateway } from '../support/gateway';
import { http, type HttpResult } from '../support/http';
import { schedulerEnvFor, startPaymentsHarness, type PaymentsHarness } from '../support/payments';
import { availableBalance, fundedLiveMerchant, savedRecipient } from './live-wallet';
import { timeoutFor, trials } from './trials';

const CONCURRENT = 32;
const PAYMENT = 100_000;
/** The amount of every refund and every transfer: each takes exactly it from the wallet (no fee: docs/refunds.md, docs/transfers.md). */
const DEBIT = 4_000;
/**
 * Refunds of one payment queue on its row lock, so in practice the transfers reach the wallet
 * first: with 16 of each, all 16 transfers are served and only refunds are refused. Every other
 * trial sends 28 transfers (and 4 refunds), more than the wallet takes, so transfers are refused too.
 */
const REFUNDS_PER_TRIAL = [16, 4];

/**
 * Reliability row 4 (overdraw): per trial a new live account (transfers exist in live mode only)
 * is paid ₦100,000 once (₦97,990 lands in its wallet after the ₦10 platform and ₦2,000 provider
 * fees), then 32 debits of ₦4,000 are asked at once — refunds of that payment (16, or 4 every other
 * trial) and transfers to a saved recipient (the rest), interleaved, alternating between two API
 * instances on one database. A refund debits its amount (the payment's fees are not returned) and
 * a transfer reserves its amount (the provider's transfer fee is not the merchant's), so the wallet takes 24 of them
 * whatever their mix, while the payment's own limit (25 refunds) never binds: exactly 24 are
 * served, the rest refused with 422 `insufficient_wallet_balance`, and ₦1,990 is left available —
 * never below zero. Once the simulator has paid the transfers nothing stays reserved, and the
 * wallet's total is that ₦1,990.
 */
describe('reliability: no overdraw under concurrent refunds and transfers across two API instances', () => {
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

  it(`${trials(200)} trials of ${CONCURRENT} concurrent refunds and transfers on one wallet: exactly the capacity served, never below zero`, async () => {
    const debit = Amount.parse(String(DEBIT));
    // At most half of the requests are refunds: fewer than the payment can take, so only the wallet limits them.
    expect(Math.max(...REFUNDS_PER_TRIAL)).toBeLessThan(Math.floor(PAYMENT / DEBIT));
    for (let trial = 0; trial < trials(200); trial++) {
      const { merchant, paymentReference: reference } = await fundedLiveMerchant(h, PAYMENT);
      const recipient = await savedRecipient(h.gateway, merchant.key);
      const funded = await availableBalance(h.gateway, merchant.key);
      const capacity = Number(funded.toMinor() / debit.toMinor());

      const instances = [h.gateway, second];
      // Refunds spread evenly in pairs, so each kind reaches both instances.
      const refundEvery = CONCURRENT / REFUNDS_PER_TRIAL[trial % REFUNDS_PER_TRIAL.length];
      const isRefund = (i: number) => Math.floor(i / 2) % refundEvery === 0;
      const answers: HttpResult[] = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, i) =>
          isRefund(i)
            ? http(instances[i % 2].baseUrl, 'POST', '/api/v1/refunds', { token: merchant.key, body: { payment_reference: reference, amount: DEBIT } })
            : http(instances[i % 2].baseUrl, 'POST', '/api/v1/transfers', { token: merchant.key, body: { source: 'wallet', amount: DEBIT, recipient } }),
        ),
      );
      const served = answers.filter((a) => a.status === 201);
      const refused = answers.filter((a) => a.status === 422 && a.body.code === 'insufficient_wallet_balance').length;
      const left = await availableBalance(second, merchant.key);
      expect([trial, served.length, refused, left.isNegative()]).toEqual([trial, capacity, CONCURRENT - capacity, false]);
      expect([trial, left.toString()]).toEqual([trial, funded.minus(Amount.fromMinor(BigInt(capacity) * debit.toMinor())).toString()]);

      // What was served is what exists: one refund or transfer per 201, none for a refusal.
      const servedRefunds = answers.filter((a, i) => a.status === 201 && isRefund(i)).length;
      const refunds = await http(second.baseUrl, 'GET', `/api/v1/refunds?payment=${reference}&limit=100`, { token: merchant.key });
      const transfers = await http(second.baseUrl, 'GET', '/api/v1/transfers?limit=100', { token: merchant.key });
      expect([trial, refunds.body.data.length, transfers.body.data.length]).toEqual([trial, servedRefunds, capacity - servedRefunds]);

      // Once the bank has paid the transfers (their callbacks answered), nothing stays reserved and the total is what is left.
      await h.sim.idle();
      const settled = (await http(h.gateway.baseUrl, 'GET', '/api/v1/wallet/balance?currency=NGN', { token: merchant.key })).body.data;
      expect([trial, settled.available_balance, settled.reserved_balance, settled.total_balance]).toEqual([trial, left.toNumber(), 0, left.toNumber()]);
    }
  }, timeoutFor(trials(200), 5_000));
});
