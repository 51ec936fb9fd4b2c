/**
 * Static bank fixtures. The simulator never talks to a bank: account names are
 * taken from the request, and outcomes are decided by documented magic numbers.
 */

export interface Bank {
  id: number;
  name: string;
  slug: string;
  code: string;
  currency: 'NGN';
  type: 'nuban';
}

export const BANKS: readonly Bank[] = [
  { id: 1, name: 'Access Bank', slug: 'access-bank', code: '044', currency: 'NGN', type: 'nuban' },
  { id: 2, name: 'First Bank of Nigeria', slug: 'first-bank-of-nigeria', code: '011', currency: 'NGN', type: 'nuban' },
  { id: 3, name: 'Guaranty Trust Bank', slug: 'guaranty-trust-bank', code: '058', currency: 'NGN', type: 'nuban' },
  { id: 4, name: 'United Bank For Africa', slug: 'united-bank-for-africa', code: '033', currency: 'NGN', type: 'nuban' },
  { id: 5, name: 'Wema Bank', slug: 'wema-bank', code: '035', currency: 'NGN', type: 'nuban' },
  { id: 6, name: 'Zenith Bank', slug: 'zenith-bank', code: '057', currency: 'NGN', type: 'nuban' },
  { id: 7, name: 'Test Bank', slug: 'test-bank', code: '001', currency: 'NGN', type: 'nuban' },
];

/** Banks that can issue dedicated virtual accounts (`preferred_bank` slugs). */
export const DEDICATED_ACCOUNT_BANKS: readonly Bank[] = BANKS.filter((bank) =>
  ['wema-bank', 'test-bank'].includes(bank.slug),
);
export const DEFAULT_DEDICATED_ACCOUNT_BANK_SLUG = 'test-bank';

/** A transfer to this account number always fails ("Could not credit account"). */
export const FAILING_TRANSFER_ACCOUNT_NUMBER = '0000000000';
export const TRANSFER_FAILURE_REASON = 'Could not credit account';

export function findBankByCode(code: string): Bank | undefined {
  return BANKS.find((bank) => bank.code === code);
}

export function findDedicatedAccountBank(slug: string): Bank | undefined {
  return DEDICATED_ACCOUNT_BANKS.find((bank) => bank.slug === slug);
}
