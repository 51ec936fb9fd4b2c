import { portalApi, unwrap } from '../../shared/api';

/** The API's password policy (PASSWORD_MIN_LENGTH in the contracts): checked here only to help, the API decides. */
export const PASSWORD_MIN_LENGTH = 12;

/** Creates the invited user with this name and password (the token is the e-mailed link's). */
export async function acceptInvitation(body: { token: string; name: string; password: string }): Promise<void> {
  await unwrap(portalApi.POST('/api/portal/auth/invitations/accept', { body }));
}

/** Always answers the same, whether or not the address has an account. */
export async function requestPasswordReset(email: string): Promise<void> {
  await unwrap(portalApi.POST('/api/portal/auth/password-reset', { body: { email } }));
}

/** Sets the new password from the e-mailed link; the API signs the user out everywhere. */
export async function confirmPasswordReset(body: { token: string; password: string }): Promise<void> {
  await unwrap(portalApi.POST('/api/portal/auth/password-reset/confirm', { body }));
}
