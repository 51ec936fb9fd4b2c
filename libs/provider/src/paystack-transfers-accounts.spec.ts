import { createProviderSimulator, FAILING_TRANSFER_ACCOUNT_NUMBER, type ProviderSimulator } from '@gateway/provider-sim';
import { ProviderRejectedError } from './provider-rejected.error';
import type { PaystackHttpProvider } from './paystack/paystack-http.provider';
import { adapterFor, LIVE_SECRET, ngn, silenceProviderLogs, TEST_SECRET, uniqueReference } from './testing/adapter-harness';

describe('PaystackHttpProvider: transfers, dedicated accounts and disputes (over HTTP against the simulator)', () => {
  let sim: ProviderSimulator;
  let provider: PaystackHttpProvider;

  beforeAll(async () => {
    silenceProviderLogs();
    sim = createProviderSimulator({ secretKeys: [TEST_SECRET, LIVE_SECRET], transferDelayMs: 0, autoComplete: false });
    provider = adapterFor(await sim.listen());
  });
  afterAll(() => sim.close());

  describe('transfers', () => {
    it('lists the banks', async () => {
      const banks = await provider.listBanks('live');
      expect(banks).toContainEqual(expect.objectContaining({ name: 'Access Bank', code: '044', currency: 'NGN' }));
    });

    it('creates a recipient, pays out under our reference and verifies it; the same call again is the same transfer', async () => {
      const recipient = await provider.createTransferRecipient('live', { name: 'Ada Lovelace', accountNumber: '0123456789', bankCode: '058', currency: 'NGN' });
      expect(recipient).toMatchObject({ accountNumber: '0123456789', bankCode: '058', bankName: 'Guaranty Trust Bank', accountName: 'ADA LOVELACE' });
      expect(recipient.providerRecipientCode).toMatch(/^RCP_/);

      const input = { reference: uniqueReference('trf'), amount: ngn('12345.67'), currency: 'NGN' as const, recipientCode: recipient.providerRecipientCode, reason: 'Settlement' };
      const transfer = await provider.initiateTransfer('live', input);
      expect(transfer).toMatchObject({ reference: input.reference, status: 'pending', currency: 'NGN', failureReason: null, transferredAt: null });
      expect(transfer.amount.toString()).toBe('12345.67');
      expect(transfer.providerTransferCode).toMatch(/^TRF_/);
      expect((await provider.initiateTransfer('live', input)).providerTransferCode).toBe(transfer.providerTransferCode);

      await fetch(`${sim.url()}/sim/transfers/${input.reference}/complete`, { method: 'POST', headers: { authorization: `Bearer ${LIVE_SECRET}` } });
      const settled = await provider.verifyTransfer('live', input.reference);
      expect(settled?.status).toBe('success');
      expect(settled?.transferredAt).toBeInstanceOf(Date);
    });

    it('a transfer to the failing account settles as failed with the reason', async () => {
      const recipient = await provider.createTransferRecipient('live', { name: 'Nobody', accountNumber: FAILING_TRANSFER_ACCOUNT_NUMBER, bankCode: '044', currency: 'NGN' });
      const reference = uniqueReference('trf');
      await provider.initiateTransfer('live', { reference, amount: ngn('10.00'), currency: 'NGN', recipientCode: recipient.providerRecipientCode });
      await fetch(`${sim.url()}/sim/transfers/${reference}/complete`, { method: 'POST', headers: { authorization: `Bearer ${LIVE_SECRET}` } });
      expect(await provider.verifyTransfer('live', reference)).toMatchObject({ status: 'failed', failureReason: 'Could not credit account' });
    });

    it('an unknown recipient is refused (400), an unknown transfer verifies as null, a bad bank code is refused', async () => {
      await expect(
        provider.initiateTransfer('live', { reference: uniqueReference('trf'), amount: ngn('10.00'), currency: 'NGN', recipientCode: 'RCP_unknown' }),
      ).rejects.toMatchObject({ providerStatus: 400 });
      expect(await provider.verifyTransfer('live', uniqueReference('missing'))).toBeNull();
      await expect(provider.createTransferRecipient('live', { name: 'Ada', accountNumber: '0123456789', bankCode: '999', currency: 'NGN' })).rejects.toBeInstanceOf(
        ProviderRejectedError,
      );
    });
  });

  describe('dedicated accounts', () => {
    it('creates the customer and its account; asking again returns the same account', async () => {
      const email = `${uniqueReference('va')}@example.com`;
      const account = await provider.createDedicatedAccount('test', { customerEmail: email, firstName: 'Ada', lastName: 'Lovelace' });
      expect(account.accountNumber).toMatch(/^\d{10}$/);
      expect(account.bankName).toBe('Test Bank');
      expect(account.accountName).toMatch(/\S/);
      expect(account.providerCustomerCode).toMatch(/^CUS_/);
      expect(await provider.createDedicatedAccount('test', { customerEmail: email })).toEqual(account);
    });

    it('a sandbox deposit is a successful NGN transaction with the provider fee', async () => {
      const account = await provider.createDedicatedAccount('test', { customerEmail: `${uniqueReference('va')}@example.com` });
      const deposit = await provider.depositToDedicatedAccount('test', { accountNumber: account.accountNumber, amount: ngn('2000.00'), senderName: 'Grace Hopper' });
      expect(deposit).toMatchObject({ status: 'success', currency: 'NGN', channel: 'dedicated_nuban', customerCode: account.providerCustomerCode });
      expect(deposit.amount.toString()).toBe('2000.00');
      expect(deposit.fee?.toString()).toBe('30.00');
      expect(await provider.verifyTransaction('test', deposit.reference)).toMatchObject({ status: 'success' });
    });

    it('a deposit into an unknown account number is a 404 rejection', async () => {
      await expect(provider.depositToDedicatedAccount('test', { accountNumber: '9999999999', amount: ngn('1.00') })).rejects.toMatchObject({ providerStatus: 404 });
    });
  });

  describe('disputes', () => {
    async function paidTransaction(): Promise<string> {
      const reference = uniqueReference('pay');
      await provider.initializeTransaction('test', { reference, email: 'ada@example.com', amount: ngn('5000.00'), currency: 'NGN' });
      await provider.completeSandboxCheckout('test', reference, 'success');
      return reference;
    }

    it('open → evidence (under review) → declined by the bank = won', async () => {
      const reference = await paidTransaction();
      const opened = await provider.openSandboxDispute('test', { transactionReference: reference, amount: ngn('1500.25'), reason: 'Not received' });
      expect(opened).toMatchObject({ transactionReference: reference, status: 'open', currency: 'NGN', reason: 'Not received', resolvedAt: null });
      expect(opened.amount.toString()).toBe('1500.25');
      const reviewed = await provider.submitDisputeEvidence('test', opened.providerId, {
        customerEmail: 'ada@example.com',
        customerName: 'Ada Lovelace',
        customerPhone: '+2348000000000',
        serviceDetails: 'Delivered in person',
      });
      expect(reviewed.status).toBe('under_review');
      const resolved = await provider.resolveSandboxDispute('test', opened.providerId, 'declined');
      expect(resolved.status).toBe('won');
      expect(resolved.resolvedAt).toBeInstanceOf(Date);
    });

    it('merchant-accepted = lost; a dispute on an unknown transaction is refused', async () => {
      const reference = await paidTransaction();
      const opened = await provider.openSandboxDispute('test', { transactionReference: reference });
      expect(opened.amount.toString()).toBe('5000.00');
      expect((await provider.resolveSandboxDispute('test', opened.providerId, 'merchant-accepted')).status).toBe('lost');
      await expect(provider.openSandboxDispute('test', { transactionReference: uniqueReference('missing') })).rejects.toBeInstanceOf(ProviderRejectedError);
    });
  });
});
