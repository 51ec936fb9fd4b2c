import type { SimulatorContext } from '../context';
import { DEFAULT_DEDICATED_ACCOUNT_BANK_SLUG, DEDICATED_ACCOUNT_BANKS, findDedicatedAccountBank } from '../banks';
import { badRequest, missingParams, notFound } from '../errors';
import type { MinorUnits } from '../money';
import type { Account } from '../state/accounts';
import type { DedicatedAccountRecord } from '../state/dedicated-accounts';
import type { TransactionRecord } from '../state/transactions';
import type { CustomerDetails } from './customers';
import { markPaid, newTransaction } from './payments';

/**
 * Assigns a dedicated virtual account to a customer; one per customer and bank (asking again
 * returns it). As Paystack's guide says, the bank account needs the customer's first name, last
 * name and phone: given here they complete the customer record, missing on both it is a 400.
 * The customer is named by its code or its numeric id.
 */
export function createDedicatedAccount(
  ctx: SimulatorContext,
  account: Account,
  customerCodeOrId: string,
  preferredBank: string | undefined,
  details: CustomerDetails = {},
): DedicatedAccountRecord {
  const customer = account.customers.findByCode(customerCodeOrId) ?? account.customers.findById(Number(customerCodeOrId));
  if (!customer) throw notFound('Customer not found');
  customer.firstName = details.firstName ?? customer.firstName;
  customer.lastName = details.lastName ?? customer.lastName;
  customer.phone = details.phone ?? customer.phone;
  if (!customer.firstName || !customer.lastName || !customer.phone) {
    throw missingParams('first_name, last_name and phone are required on the customer to create a dedicated account');
  }
  const bank = findDedicatedAccountBank(preferredBank ?? DEFAULT_DEDICATED_ACCOUNT_BANK_SLUG);
  if (!bank) {
    throw badRequest(`preferred_bank must be one of: ${DEDICATED_ACCOUNT_BANKS.map((b) => b.slug).join(', ')}`);
  }
  const existing = account.dedicatedAccounts.findForCustomer(customer.customerCode, bank.slug);
  if (existing) return existing;

  const holderName = [customer.firstName, customer.lastName].filter(Boolean).join(' ') || customer.email;
  return account.dedicatedAccounts.add({
    id: ctx.ids.numericId(),
    accountNumber: ctx.ids.dedicatedAccountNumber(),
    accountName: `SIM/${holderName}`.toUpperCase(),
    bank,
    customerCode: customer.customerCode,
    createdAt: ctx.now(),
  });
}

export interface DepositInput {
  amount: MinorUnits;
  senderName: string | undefined;
  senderBank: string | undefined;
  senderAccountNumber: string | undefined;
  narration: string | undefined;
}

/**
 * A simulated bank transfer into a dedicated account. It becomes a successful
 * NGN transaction on channel "dedicated_nuban" (with a provider-generated
 * reference, as Paystack does) and sends charge.success.
 */
export function depositToDedicatedAccount(
  ctx: SimulatorContext,
  account: Account,
  accountNumber: string,
  input: DepositInput,
): TransactionRecord {
  const dedicated = account.dedicatedAccounts.findByNumber(accountNumber);
  if (!dedicated) throw notFound('Dedicated account not found');
  const customer = account.customers.findByCode(dedicated.customerCode);
  if (!customer) throw notFound('Customer not found');

  const authorizationCode = ctx.ids.code('AUTH', 10);
  const senderAccountNumber = input.senderAccountNumber ?? '0123456789';
  account.authorizations.add({
    authorizationCode,
    email: customer.email,
    customerCode: customer.customerCode,
    channel: 'dedicated_nuban',
    bin: senderAccountNumber.slice(0, 6),
    last4: senderAccountNumber.slice(-4),
    expMonth: '',
    expYear: '',
    cardType: 'transfer',
    brand: 'Managed Account',
    bank: dedicated.bank.name,
    // A bank transfer cannot be pulled again by the merchant.
    reusable: false,
    signature: null,
    card: null,
    bankTransfer: {
      senderName: input.senderName ?? 'SIMULATED SENDER',
      senderBank: input.senderBank ?? 'Access Bank',
      senderAccountNumber,
      receiverAccountNumber: dedicated.accountNumber,
      receiverBank: dedicated.bank.name,
      narration: input.narration ?? `Transfer to ${dedicated.accountName}`,
    },
  });

  const transaction = account.transactions.add(
    newTransaction(ctx, ctx.ids.reference(), 'dedicated_account_deposit', {
      channel: 'dedicated_nuban',
      amount: input.amount,
      currency: 'NGN',
      email: customer.email,
      customerCode: customer.customerCode,
      metadata: {
        receiver_account_number: dedicated.accountNumber,
        receiver_bank: dedicated.bank.name,
        custom_fields: [],
      },
      dedicatedAccountNumber: dedicated.accountNumber,
    }),
  );
  markPaid(ctx, account, transaction, authorizationCode);
  return transaction;
}
