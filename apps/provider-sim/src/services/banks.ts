import { BANKS, type Bank } from '../banks';
import { badRequest } from '../errors';

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
