import { portalApi, unwrap, unwrapPage, type Page, type Schema } from '../../../shared/api';

export type AdminDeveloper = Schema<'AdminDeveloperResponse'>;
export type ProvisionedDeveloper = Schema<'ProvisionedDeveloperResponse'>;
export type FeeOverride = Schema<'FeeOverrideResponse'>;
export type FeeOverrideChange = Schema<'FeeOverrideChangeResponse'>;
export type DeveloperSummary = Schema<'AdminDeveloperSummaryResponse'>;
export type DeveloperStatus = DeveloperSummary['status'];

export interface DeveloperFilters {
  /** Part of the name or e-mail. */
  q?: string;
  status?: DeveloperStatus;
}

export const PAGE_SIZE = 25;

/** Developer accounts, newest first, searched by name or e-mail and filtered by status. */
export function listDevelopers(filters: DeveloperFilters, cursor: string | undefined, signal?: AbortSignal): Promise<Page<DeveloperSummary[]>> {
  return unwrapPage(portalApi.GET('/api/portal/admin/developers', { params: { query: { ...filters, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } }, signal }));
}

export function getDeveloper(id: string, signal?: AbortSignal): Promise<AdminDeveloper> {
  return unwrap(portalApi.GET('/api/portal/admin/developers/{id}', { params: { path: { id } }, signal }));
}

/** Creates the account and e-mails its owner an invitation. */
export function provisionDeveloper(body: { email: string; name: string }): Promise<ProvisionedDeveloper> {
  return unwrap(portalApi.POST('/api/portal/admin/developers', { body }));
}

/** A flat platform fee per successful transaction in `currency`; 0 means none. */
export function setFeeOverride(id: string, currency: string, amount: number): Promise<FeeOverride> {
  return unwrap(portalApi.PUT('/api/portal/admin/developers/{id}/fees/{currency}', { params: { path: { id, currency } }, body: { amount } }));
}

/** Enables live mode for the account; the note is kept in the audit log. */
export function verifyIdentity(id: string, note?: string): Promise<AdminDeveloper> {
  return unwrap(portalApi.POST('/api/portal/admin/developers/{id}/verify-identity', { params: { path: { id } }, body: note ? { note } : {} }));
}

/** Marks the account's e-mail verified (test mode opens); the note is kept in the audit log. */
export function verifyEmail(id: string, note?: string): Promise<AdminDeveloper> {
  return unwrap(portalApi.POST('/api/portal/admin/developers/{id}/verify-email', { params: { path: { id } }, body: note ? { note } : {} }));
}

/** The account's keys and its members' account pages are refused until it is reactivated. */
export function suspendDeveloper(id: string, reason: string): Promise<AdminDeveloper> {
  return unwrap(portalApi.POST('/api/portal/admin/developers/{id}/suspend', { params: { path: { id } }, body: { reason } }));
}

export function reactivateDeveloper(id: string): Promise<AdminDeveloper> {
  return unwrap(portalApi.POST('/api/portal/admin/developers/{id}/reactivate', { params: { path: { id } } }));
}
