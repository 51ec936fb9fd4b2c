/**
 * Static bank fixtures, in the shape of Paystack's List Banks answer. The simulator never talks
 * to a bank: recipients keep the account name given in the request, `GET /bank/resolve` derives a
 * stable name from the account number, and outcomes are decided by documented magic numbers. Kenyan entries exist so that currency filtering and per-currency recipient types
 * (`kepss`, `mobile_money`) can be exercised; the simulator serves no GHS or ZAR.
 */

/** Paystack's recipient types (API reference, Create Transfer Recipient; guide "Creating Transfer Recipients"). */
export type RecipientType = 'nuban' | 'ghipss' | 'basa' | 'kepss' | 'mobile_money';

export interface Bank {
  id: number;
  name: string;
  slug: string;
  code: string;
  country: 'Nigeria' | 'Kenya';
  currency: 'NGN' | 'KES';
  type: RecipientType;
}

export const BANKS: readonly Bank[] = [
  { id: 1, name: 'Access Bank', slug: 'access-bank', code: '044', country: 'Nigeria', currency: 'NGN', type: 'nuban' },
  { id: 2, name: 'First Bank of Nigeria', slug: 'first-bank-of-nigeria', code: '011', country: 'Nigeria', currency: 'NGN', type: 'nuban' },
  { id: 3, name: 'Guaranty Trust Bank', slug: 'guaranty-trust-bank', code: '058', country: 'Nigeria', currency: 'NGN', type: 'nuban' },
  { id: 4, name: 'United Bank For Africa', slug: 'united-bank-for-africa', code: '033', country: 'Nigeria', currency: 'NGN', type: 'nuban' },
  { id: 5, name: 'Wema Bank', slug: 'wema-bank', code: '035', country: 'Nigeria', currency: 'NGN', type: 'nuban' },
  { id: 6, name: 'Zenith Bank', slug: 'zenith-bank', code: '057', country: 'Nigeria', currency: 'NGN', type: 'nuban' },
  { id: 7, name: 'Test Bank', slug: 'test-bank', code: '001', country: 'Nigeria', currency: 'NGN', type: 'nuban' },
  { id: 8, name: 'Kenya Commercial Bank', slug: 'kenya-commercial-bank', code: '01', country: 'Kenya', currency: 'KES', type: 'kepss' },
  { id: 9, name: 'Equity Bank', slug: 'equity-bank', code: '68', country: 'Kenya', currency: 'KES', type: 'kepss' },
  { id: 10, name: 'M-PESA', slug: 'mpesa', code: 'MPESA', country: 'Kenya', currency: 'KES', type: 'mobile_money' },
];

/** Which currency each recipient type pays out in (`mobile_money`: GHS or KES). */
export const RECIPIENT_TYPE_CURRENCIES: Readonly<Record<RecipientType, readonly string[]>> = {
  nuban: ['NGN'],
  ghipss: ['GHS'],
  basa: ['ZAR'],
  kepss: ['KES'],
  mobile_money: ['GHS', 'KES'],
};

/** Banks that can issue dedicated virtual accounts (`preferred_bank` slugs). */
export const DEDICATED_ACCOUNT_BANKS: readonly Bank[] = BANKS.filter((bank) => ['wema-bank', 'test-bank'].includes(bank.slug));
export const DEFAULT_DEDICATED_ACCOUNT_BANK_SLUG = 'test-bank';

/** A transfer to this account number always fails ("Could not credit account"). */
export const FAILING_TRANSFER_ACCOUNT_NUMBER = '0000000000';
export const TRANSFER_FAILURE_REASON = 'Could not credit account';
/**
 * A transfer to this account number settles `success`, but no callback is ever sent for it: the
 * gateway must learn the outcome by verifying the transfer (reconciliation).
 */
export const SILENT_TRANSFER_ACCOUNT_NUMBER = '0000000001';
/**
 * A transfer to this account number settles `success` (with `transfer.success`), then the bank
 * sends the money back: `transfer_delay_ms` later it is `reversed`, with `transfer.reversed`.
 */
export const REVERSING_TRANSFER_ACCOUNT_NUMBER = '0000000002';
/** `GET /bank/resolve` never resolves this account number, at any bank. */
export const UNRESOLVABLE_ACCOUNT_NUMBER = '9999999999';

/** An account `GET /bank/resolve` found: the number asked about, the bank's name for it, the bank. */
export interface ResolvedAccount {
  accountNumber: string;
  accountName: string;
  bank: Bank;
}

/** Names for resolved accounts: the first by the account number's ninth digit, the last by its tenth. */
const FIRST_NAMES = ['ADAEZE', 'BABATUNDE', 'CHIOMA', 'DAMILOLA', 'EMEKA', 'FUNMILAYO', 'GBENGA', 'HAUWA', 'IFEOMA', 'JIDE'] as const;
const LAST_NAMES = ['ADEYEMI', 'BELLO', 'CHUKWU', 'DANJUMA', 'EZE', 'FASHOLA', 'GARBA', 'HASSAN', 'IBRAHIM', 'JOHNSON'] as const;

/**
 * The name a bank holds for a 10-digit NUBAN account number, as `GET /bank/resolve` answers it:
 * upper-case like Paystack's, the same for the same number every time (e.g. `0123456789` →
 * `IFEOMA JOHNSON`). Null for anything but 10 digits, and for the unresolvable number.
 */
export function accountNameFor(accountNumber: string): string | null {
  if (!/^\d{10}$/.test(accountNumber) || accountNumber === UNRESOLVABLE_ACCOUNT_NUMBER) return null;
  return `${FIRST_NAMES[Number(accountNumber[8])]} ${LAST_NAMES[Number(accountNumber[9])]}`;
}

/** The bank with this code for this kind of recipient (a code names one bank per type). */
export function findBank(code: string, type: RecipientType): Bank | undefined {
  return BANKS.find((bank) => bank.code === code && bank.type === type);
}

export function findDedicatedAccountBank(slug: string): Bank | undefined {
  return DEDICATED_ACCOUNT_BANKS.find((bank) => bank.slug === slug);
}

/** A fixed time, so a bank's timestamps never change between calls. */
const FIXTURE_TIME = '2020-12-07T16:19:09.000Z';

/** One entry of `GET /bank`, field for field as the API reference's sample. */
export function bankToWire(bank: Bank) {
  return {
    name: bank.name,
    slug: bank.slug,
    code: bank.code,
    longcode: '',
    gateway: null,
    pay_with_bank: false,
    active: true,
    is_deleted: false,
    country: bank.country,
    currency: bank.currency,
    type: bank.type,
    id: bank.id,
    createdAt: FIXTURE_TIME,
    updatedAt: FIXTURE_TIME,
  };
}
