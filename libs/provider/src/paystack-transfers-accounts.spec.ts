import { createProviderSimulator, FAILING_TRANSFER_ACCOUNT_NUMBER, UNRESOLVABLE_ACCOUNT_NUMBER, type ProviderSimulator } from '@gateway/provider-sim';
import { ProviderRejectedError } from './provider-rejected.error';
import type { PaystackHttpProvider } from './paystack/paystack-http.provider';
import { adapterFor, LIVE_SECRET, ngn, silenceProviderLogs, TEST_SECRET, uniqueReference } from './testing/adapter-harness';

/** Paystack's transfer references: lowercase letters, digits, - and _, at least 16 characters. */
const transferReference = () => uniqueReference('trf').toLowerCase();

describe('PaystackHttpProvider: transfers and dedicated accounts (over HTTP against the simulator)', () => {
  let sim: ProviderSimulator;
  let provider: PaystackHttpProvider;

  beforeAll(async () => {
    silenceProviderLogs();
    sim = createProviderSimulator({ secretKeys: [TEST_SECRET, LIVE_SECRET], transferDelayMs: 0, autoComplete: false });
    // Small pages, so that listing banks has to follow the cursor.
    provider = adapterFor(await sim.listen(), 5_000, undefined, { bankPageSize: 2 });
  });
  afterEach(() => sim.setKnobs({ transferOtp: false, duplicateReferences: 'refuse', failNext: 0 }));
  afterAll(() => sim.close());

  const complete = (reference: string) =>
    fetch(`${sim.url()}/sim/transfers/${reference}/complete`, { method: 'POST', headers: { authorization: `Bearer ${LIVE_SECRET}` } });

  describe('banks', () => {
    it("lists every bank of the currency, following the provider's pages", async () => {
      const banks = await provider.listBanks('live', 'NGN');
      expect(banks).toHaveLength(7);
      expect(new Set(banks.map((bank) => bank.code)).size).toBe(7);
      expect(banks).toContainEqual({ name: 'Access Bank', code: '044', slug: 'access-bank', currency: 'NGN', type: 'nuban' });
      const kenyan = await provider.listBanks('live', 'KES');
      expect(kenyan.map((bank) => [bank.code, bank.type])).toEqual([
        ['01', 'kepss'],
        ['68', 'kepss'],
        ['MPESA', 'mobile_money'],
      ]);
    });
  });

  describe('resolving an account name', () => {
    it("answers the bank's name for the account, in either mode", async () => {
      expect(await provider.resolveAccount('live', { accountNumber: '0123456789', bankCode: '058' })).toEqual({ accountNumber: '0123456789', accountName: 'IFEOMA JOHNSON' });
      expect(await provider.resolveAccount('test', { accountNumber: '0123456789', bankCode: '044' })).toEqual({ accountNumber: '0123456789', accountName: 'IFEOMA JOHNSON' });
    });

    it('is null when the provider cannot resolve the account: an unresolvable number, an unknown bank, a number the bank does not use', async () => {
      expect(await provider.resolveAccount('live', { accountNumber: UNRESOLVABLE_ACCOUNT_NUMBER, bankCode: '058' })).toBeNull();
      expect(await provider.resolveAccount('live', { accountNumber: '0123456789', bankCode: '999' })).toBeNull();
      expect(await provider.resolveAccount('live', { accountNumber: '12345', bankCode: '058' })).toBeNull();
    });

    it('refuses an account number that is not digits, or a bank code that is not a code, before sending anything', async () => {
      // Nothing listens there: any call would be a provider_error, so validation_error proves none was made.
      const unreachable = adapterFor('http://127.0.0.1:9');
      for (const [input, field] of [
        [{ accountNumber: '01234-6789', bankCode: '058' }, 'account_number'],
        [{ accountNumber: '', bankCode: '058' }, 'account_number'],
        [{ accountNumber: '0123456789', bankCode: '058&x=1' }, 'bank_code'],
        [{ accountNumber: '0123456789', bankCode: '' }, 'bank_code'],
      ] as const) {
        await expect(unreachable.resolveAccount('live', input)).rejects.toMatchObject({ code: 'validation_error', fieldErrors: { [field]: [expect.any(String)] } });
      }
    });

    it('a provider failure is never "cannot resolve": a 500 is provider_error', async () => {
      sim.setKnobs({ failNext: 1 });
      const attempt = provider.resolveAccount('live', { accountNumber: '0123456789', bankCode: '058' });
      await expect(attempt).rejects.toMatchObject({ code: 'provider_error' });
      await expect(attempt).rejects.not.toBeInstanceOf(ProviderRejectedError);
    });
  });

  describe('transfers', () => {
    it('creates a recipient, pays out under our reference and verifies it', async () => {
      const recipient = await provider.createTransferRecipient('live', { name: 'Ada Lovelace', accountNumber: '0123456789', bankCode: '058', currency: 'NGN' });
      expect(recipient).toMatchObject({ accountNumber: '0123456789', bankCode: '058', bankName: 'Guaranty Trust Bank', accountName: 'ADA LOVELACE' });
      expect(recipient.providerRecipientCode).toMatch(/^RCP_/);

      const input = { reference: transferReference(), amount: ngn('12345.67'), currency: 'NGN' as const, recipientCode: recipient.providerRecipientCode, reason: 'Settlement' };
      const transfer = await provider.initiateTransfer('live', input);
      expect(transfer).toMatchObject({ reference: input.reference, status: 'pending', currency: 'NGN', failureReason: null, transferredAt: null });
      expect(transfer.amount.toString()).toBe('12345.67');
      expect(transfer.providerTransferCode).toMatch(/^TRF_/);

      await complete(input.reference);
      const settled = await provider.verifyTransfer('live', input.reference);
      expect(settled?.status).toBe('success');
      expect(settled?.transferredAt).toBeInstanceOf(Date);
    });

    it('the recipient type follows the currency (kepss for KES), or is the one given (mobile_money)', async () => {
      const bank = await provider.createTransferRecipient('live', { name: 'Wanjiru', accountNumber: '1234567890123', bankCode: '01', currency: 'KES' });
      expect(bank).toMatchObject({ bankName: 'Kenya Commercial Bank', accountNumber: '1234567890123' });
      const wallet = await provider.createTransferRecipient('live', { name: 'Otieno', accountNumber: '0712345678', bankCode: 'MPESA', currency: 'KES', type: 'mobile_money' });
      expect(wallet.bankName).toBe('M-PESA');
      // Sent as nuban, a KES recipient is refused by the provider: the type is not always nuban.
      await expect(provider.createTransferRecipient('live', { name: 'X', accountNumber: '1234567890123', bankCode: '01', currency: 'KES', type: 'nuban' })).rejects.toBeInstanceOf(
        ProviderRejectedError,
      );
    });

    it('a currency without a recipient type (USD, GBP) is capability_not_supported, nothing sent', async () => {
      const unreachable = adapterFor('http://127.0.0.1:9');
      await expect(unreachable.createTransferRecipient('live', { name: 'X', accountNumber: '0123456789', bankCode: '058', currency: 'USD' })).rejects.toMatchObject({
        code: 'capability_not_supported',
      });
    });

    it('refuses a reference Paystack would refuse (upper case, too short, other symbols) before sending anything', async () => {
      // Nothing listens there: any call would be a provider_error, so validation_error proves none was made.
      const unreachable = adapterFor('http://127.0.0.1:9');
      for (const reference of ['TRF_UPPER_CASE_0001', 'short_ref_15chr', 'payout.reference.0001']) {
        const attempt = unreachable.initiateTransfer('live', { reference, amount: ngn('10.00'), currency: 'NGN', recipientCode: 'RCP_x' });
        await expect(attempt).rejects.toMatchObject({ code: 'validation_error', fieldErrors: { reference: [expect.any(String)] } });
      }
    });

    it('retrying a transfer the provider already has (its duplicate_reference) answers that transfer; another transfer under the reference is refused', async () => {
      const recipient = await provider.createTransferRecipient('live', { name: 'Ada', accountNumber: '0123456789', bankCode: '058', currency: 'NGN' });
      const input = { reference: transferReference(), amount: ngn('50.00'), currency: 'NGN' as const, recipientCode: recipient.providerRecipientCode };
      const first = await provider.initiateTransfer('live', input);
      const retry = await provider.initiateTransfer('live', input);
      expect(retry).toMatchObject({ providerTransferCode: first.providerTransferCode, reference: input.reference, status: 'pending' });
      const other = provider.initiateTransfer('live', { ...input, amount: ngn('50.01') });
      await expect(other).rejects.toMatchObject({ providerStatus: 400, providerCode: 'duplicate_reference' });
    });

    it('an account that requires an OTP: the transfer is otp_required until finalized with the OTP', async () => {
      sim.setKnobs({ transferOtp: true });
      const recipient = await provider.createTransferRecipient('live', { name: 'Ada', accountNumber: '0123456789', bankCode: '058', currency: 'NGN' });
      const reference = transferReference();
      const transfer = await provider.initiateTransfer('live', { reference, amount: ngn('20.00'), currency: 'NGN', recipientCode: recipient.providerRecipientCode });
      expect(transfer.status).toBe('otp_required');
      expect((await provider.verifyTransfer('live', reference))?.status).toBe('otp_required');
      await expect(provider.finalizeTransfer('live', { transferCode: transfer.providerTransferCode, otp: '999999' })).rejects.toBeInstanceOf(ProviderRejectedError);
      const finalized = await provider.finalizeTransfer('live', { transferCode: transfer.providerTransferCode, otp: '123456' });
      expect(finalized).toMatchObject({ reference, status: 'pending' });
      await complete(reference);
      expect((await provider.verifyTransfer('live', reference))?.status).toBe('success');
    });

    it('a transfer to the failing account settles as failed with the reason', async () => {
      const recipient = await provider.createTransferRecipient('live', { name: 'Nobody', accountNumber: FAILING_TRANSFER_ACCOUNT_NUMBER, bankCode: '044', currency: 'NGN' });
      const reference = transferReference();
      await provider.initiateTransfer('live', { reference, amount: ngn('10.00'), currency: 'NGN', recipientCode: recipient.providerRecipientCode });
      await complete(reference);
      expect(await provider.verifyTransfer('live', reference)).toMatchObject({ status: 'failed', failureReason: 'Could not credit account' });
    });

    it('an unknown recipient is refused (invalid_transfer_recipient), an unknown transfer verifies as null, a bad bank code is refused', async () => {
      await expect(
        provider.initiateTransfer('live', { reference: transferReference(), amount: ngn('10.00'), currency: 'NGN', recipientCode: 'RCP_unknown' }),
      ).rejects.toMatchObject({ providerStatus: 400, providerCode: 'invalid_transfer_recipient' });
      expect(await provider.verifyTransfer('live', transferReference())).toBeNull();
      await expect(provider.createTransferRecipient('live', { name: 'Ada', accountNumber: '0123456789', bankCode: '999', currency: 'NGN' })).rejects.toBeInstanceOf(
        ProviderRejectedError,
      );
    });
  });

  describe('dedicated accounts', () => {
    const person = { firstName: 'Ada', lastName: 'Lovelace', phone: '+2348000000000' };

    it('creates the customer and its account; asking again returns the same account', async () => {
      const email = `${uniqueReference('va')}@example.com`;
      const account = await provider.createDedicatedAccount('test', { customerEmail: email, ...person });
      expect(account.accountNumber).toMatch(/^\d{10}$/);
      expect(account.bankName).toBe('Test Bank');
      expect(account.accountName).toBe('SIM/ADA LOVELACE');
      expect(account.providerCustomerCode).toMatch(/^CUS_/);
      expect(await provider.createDedicatedAccount('test', { customerEmail: email, ...person })).toEqual(account);
    });

    it("refuses without the customer's first name, last name or phone, before calling the provider", async () => {
      // Nothing listens there: any call would be a provider_error, so validation_error proves none was made.
      const unreachable = adapterFor('http://127.0.0.1:9');
      const email = `${uniqueReference('va')}@example.com`;
      for (const [missing, wire] of [['firstName', 'first_name'], ['lastName', 'last_name'], ['phone', 'phone']] as const) {
        const attempt = unreachable.createDedicatedAccount('test', { customerEmail: email, ...person, [missing]: ' ' });
        await expect(attempt).rejects.toMatchObject({ code: 'validation_error', fieldErrors: { [wire]: [expect.any(String)] } });
      }
    });

    it('a sandbox deposit is a successful NGN transaction with the provider fee', async () => {
      const account = await provider.createDedicatedAccount('test', { customerEmail: `${uniqueReference('va')}@example.com`, ...person });
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
});
