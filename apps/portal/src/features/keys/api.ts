import { portalApi, unwrap, type Schema } from '../../shared/api';

export type PortalKey = Schema<'PortalKeyResponse'>;
export type KeyScope = PortalKey['scopes'][number];
export type KeyKind = PortalKey['kind'];
export type NewKey = Schema<'CreatePortalKeyRequest'>;
export type IssuedKey = Schema<'IssuedPortalKeyResponse'>;

/** Step-up code for live mode (docs/portal-api.md, "Step-up"); sent only when the user gave one. */
function totpHeader(totp?: string) {
  return totp ? { 'X-TOTP-Code': totp } : undefined;
}

export function listKeys(signal?: AbortSignal): Promise<PortalKey[]> {
  return unwrap(portalApi.GET('/api/portal/keys', { signal }));
}

export function createKey(body: NewKey, totp?: string): Promise<IssuedKey> {
  return unwrap(portalApi.POST('/api/portal/keys', { body, headers: totpHeader(totp) }));
}

export function rotateKey(id: string, overlapHours: number, totp?: string): Promise<IssuedKey> {
  return unwrap(portalApi.POST('/api/portal/keys/{id}/rotate', { params: { path: { id } }, body: { overlap_hours: overlapHours }, headers: totpHeader(totp) }));
}

export function revokeKey(id: string): Promise<PortalKey> {
  return unwrap(portalApi.DELETE('/api/portal/keys/{id}', { params: { path: { id } } }));
}
