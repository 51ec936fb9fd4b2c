import { portalApi, unwrap, unwrapPage, type Page, type Schema } from '../../shared/api';

export type SettlementSettings = Schema<'SettlementSettingsResponse'>;
export type Settlement = Schema<'SettlementResponse'>;
export type SettlementStatus = Settlement['status'];
export type AutoSettlementFrequency = SettlementSettings['auto_settlement_frequency'];

export const PAGE_SIZE = 25;

function totpHeader(totp?: string) {
  return totp ? { 'X-TOTP-Code': totp } : undefined;
}

/** The settlement bank account (account-wide) and the auto-settlement frequency. */
export function getSettlementSettings(signal?: AbortSignal): Promise<SettlementSettings> {
  return unwrap(portalApi.GET('/api/portal/settlements/settings', { signal }));
}

/** Where settlements are paid: the API resolves the account at its bank; the TOTP code is always needed. */
export function setSettlementAccount(body: { bank_code: string; account_number: string }, totp: string): Promise<SettlementSettings> {
  return unwrap(portalApi.PUT('/api/portal/settlements/account', { body, params: { header: { 'X-TOTP-Code': totp } } }));
}

export function setAutoSettlement(frequency: AutoSettlementFrequency): Promise<SettlementSettings> {
  return unwrap(portalApi.PUT('/api/portal/settlements/schedule', { body: { frequency } }));
}

/** A withdrawal to the settlement account (live mode); above the large-withdrawal threshold the API answers `totp_required`. */
export function requestWithdrawal(amount: number, totp?: string): Promise<Settlement> {
  return unwrap(portalApi.POST('/api/portal/settlements', { body: { amount }, headers: totpHeader(totp) }));
}

export function listSettlements(cursor: string | undefined, signal?: AbortSignal): Promise<Page<Settlement[]>> {
  return unwrapPage(portalApi.GET('/api/portal/settlements', { params: { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } }, signal }));
}
