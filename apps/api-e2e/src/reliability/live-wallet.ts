import { Amount } from '@gateway/platform';
import { randomBytes } from 'node:crypto';
import type { TestGateway } from '../support/gateway';
import { http } from '../support/http';
import { createMerchant, type TestMerchant } from '../support/merchants';
import { buyer, type PaymentsHarness } from '../support/payments';

/** A new live merchant (transfers exist in live mode only) whose wallet holds the net of one paid live payment of `amount`; and that payment. */
export async function fundedLiveMerchant(h: PaymentsHarness, amount: number): Promise<{ merchant: TestMerchant; paymentReference: string }> {
  const merchant = await createMerchant(h.gateway, { identityVerified: true, mode: 'live' });
  const init = await http(h.gateway.baseUrl, 'POST', '/api/v1/payments/initialize', { token: merchant.key, body: { amount, email: buyer() } });
  if (init.status !== 201) throw new Error(`live initialize failed: ${init.status} ${init.text}`);
  const reference = init.body.data.reference as string;
  await http(h.sim.url() as string, 'POST', `/sim/transactions/${reference}/complete`, { token: h.secrets.live, body: {} });
  const verified = await http(h.gateway.baseUrl, 'POST', '/api/v1/payments/verify', { token: merchant.key, body: { reference } });
  if (verified.body.data?.status !== 'success') throw new Error(`live funding failed: ${verified.text}`);
  return { merchant, paymentReference: reference };
}

/** A saved recipient (a 10-digit NUBAN of its own the simulator pays), so a wallet-form transfer's only provider call is the payout. */
export async function savedRecipient(gateway: TestGateway, liveKey: string): Promise<string> {
  const accountNumber = `1${String(BigInt(`0x${randomBytes(6).toString('hex')}`) % 1_000_000_000n).padStart(9, '0')}`;
  const saved = await http(gateway.baseUrl, 'POST', '/api/v1/transfers/recipients', { token: liveKey, body: { bank_code: '058', account_number: accountNumber } });
  if (saved.status !== 201) throw new Error(`saving a recipient failed: ${saved.status} ${saved.text}`);
  return saved.body.data.recipient_code as string;
}

/** The wallet's available NGN balance, exact. */
export async function availableBalance(gateway: TestGateway, key: string): Promise<Amount> {
  const balance = (await http(gateway.baseUrl, 'GET', '/api/v1/wallet/balance?currency=NGN', { token: key })).body.data as { available_balance: number };
  return Amount.parse(String(balance.available_balance));
}
