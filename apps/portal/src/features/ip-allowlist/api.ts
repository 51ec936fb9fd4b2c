import { portalApi, unwrap, type Schema } from '../../shared/api';

export type AllowlistEntry = Schema<'IpAllowlistEntryResponse'>;
export type NewAllowlistEntry = Schema<'AddIpAllowlistEntryRequest'>;

export function listAllowlist(signal?: AbortSignal): Promise<AllowlistEntry[]> {
  return unwrap(portalApi.GET('/api/portal/ip-allowlist', { signal }));
}

export function addAllowlistEntry(body: NewAllowlistEntry): Promise<AllowlistEntry> {
  return unwrap(portalApi.POST('/api/portal/ip-allowlist', { body }));
}

export function removeAllowlistEntry(id: string): Promise<void> {
  return unwrap(portalApi.DELETE('/api/portal/ip-allowlist/{id}', { params: { path: { id } } }));
}
