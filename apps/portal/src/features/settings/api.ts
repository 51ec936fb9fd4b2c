import { portalApi, unwrap, type Schema } from '../../shared/api';

export type TotpEnrolment = Schema<'TotpEnrollResponse'>;

/** A new secret (replacing one not yet confirmed); shown once. */
export function enrollTotp(): Promise<TotpEnrolment> {
  return unwrap(portalApi.POST('/api/portal/me/totp/enroll'));
}

export function confirmTotp(code: string): Promise<Schema<'TotpStatusResponse'>> {
  return unwrap(portalApi.POST('/api/portal/me/totp/confirm', { body: { code } }));
}
