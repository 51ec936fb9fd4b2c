import { BANKS, accountNameFor, findBank, type Bank, type ResolvedAccount } from '../banks';
import { badRequest, missingParams, unresolvableAccount } from '../errors';

export interface BankQuery {
  currency?: string;
  country?: string;
  type?: string;
  perPage?: string;
  next?: string;
  previous?: string;
}

export interface BankPage {
  banks: Bank[];
  meta: { next: string | null; previous: string | null; perPage: number };
}

const DEFAULT_PER_PAGE = 50;
const MAX_PER_PAGE = 100;

/**
 * `GET /bank` as documented: filtered by `currency`, `country` and `type`, in pages of `perPage`
 * with opaque `next` / `previous` cursors in `meta` (cursor pagination, `use_cursor=true`; the
 * cursor is, like Paystack's, base64 of `bank:<id>` — the first bank of the page it opens).
 */
export function listBanks(query: BankQuery): BankPage {
  const perPage = query.perPage === undefined ? DEFAULT_PER_PAGE : Number(query.perPage);
  if (!Number.isSafeInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) {
    throw badRequest(`perPage must be an integer between 1 and ${MAX_PER_PAGE}`);
  }
  const country = query.country?.trim().toLowerCase();
  const matching = BANKS.filter(
    (bank) =>
      (query.currency === undefined || bank.currency === query.currency.trim().toUpperCase()) &&
      (country === undefined || bank.country.toLowerCase() === country) &&
      (query.type === undefined || bank.type === query.type.trim()),
  );
  let start = 0;
  if (query.next !== undefined) start = indexOfCursor(matching, query.next);
  else if (query.previous !== undefined) start = Math.max(0, indexOfCursor(matching, query.previous) - perPage);
  const banks = matching.slice(start, start + perPage);
  const following = matching[start + perPage];
  return {
    banks,
    meta: {
      next: following ? cursorOf(following) : null,
      previous: start > 0 && banks[0] ? cursorOf(banks[0]) : null,
      perPage,
    },
  };
}

function cursorOf(bank: Bank): string {
  return Buffer.from(`bank:${bank.id}`).toString('base64');
}

function indexOfCursor(banks: readonly Bank[], cursor: string): number {
  const match = /^bank:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  const index = match ? banks.findIndex((bank) => bank.id === Number(match[1])) : -1;
  if (index < 0) throw badRequest('Invalid cursor');
  return index;
}

export interface ResolveAccountQuery {
  account_number?: string;
  bank_code?: string;
}

/**
 * `GET /bank/resolve` (Paystack's Resolve Account Number): the name the bank holds for a NUBAN
 * account — a 10-digit number at a Nigerian bank of `GET /bank`. The name is derived from the
 * number (`accountNameFor`), so it is stable across calls and restarts. A missing parameter is
 * `400 missing_params`; an unknown bank code, a malformed number and the unresolvable number
 * `9999999999` are all Paystack's refusal: `422 Could not resolve account name…`.
 */
export function resolveAccount(query: ResolveAccountQuery): ResolvedAccount {
  const accountNumber = query.account_number?.trim();
  const bankCode = query.bank_code?.trim();
  if (!accountNumber) throw missingParams('account_number is required');
  if (!bankCode) throw missingParams('bank_code is required');
  const bank = findBank(bankCode, 'nuban');
  const accountName = accountNameFor(accountNumber);
  if (!bank || accountName === null) throw unresolvableAccount();
  return { accountNumber, accountName, bank };
}
