import type { Currency } from '../../shared/currencies';
import { portalApi, unwrap, unwrapPage, type Page, type Schema } from '../../shared/api';

export type WalletBalance = Schema<'WalletBalanceResponse'>;
export type LedgerEntry = Schema<'LedgerEntryResponse'>;
export type LedgerEntryType = LedgerEntry['type'];

export const LEDGER_ENTRY_TYPES: { value: LedgerEntryType; label: string }[] = [
  { value: 'credit', label: 'Credit (payment)' },
  { value: 'debit', label: 'Debit (refund, transfer, split)' },
  { value: 'fee', label: 'Fee' },
  { value: 'settlement', label: 'Settlement' },
  { value: 'virtual_account_credit', label: 'Virtual account credit' },
];

/** The ledger filters the page offers; empty ones are not sent. */
export interface LedgerFilters {
  currency?: Currency;
  type?: LedgerEntryType;
  reference?: string;
  from?: string;
  to?: string;
}

export const PAGE_SIZE = 25;

/** One balance per currency (every currency the gateway supports, zeros included). */
export function getBalances(signal?: AbortSignal): Promise<WalletBalance[]> {
  return unwrap(portalApi.GET('/api/portal/wallet/balance', { signal }));
}

export function listLedgerEntries(filters: LedgerFilters, cursor: string | undefined, signal?: AbortSignal): Promise<Page<LedgerEntry[]>> {
  const query = {
    limit: PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
    ...(filters.currency ? { currency: filters.currency } : {}),
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.reference ? { reference: filters.reference } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
  };
  return unwrapPage(portalApi.GET('/api/portal/wallet/ledger', { params: { query }, signal }));
}
