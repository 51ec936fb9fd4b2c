import { forgetCsrfToken, portalApi, rememberCsrfToken, unwrap, type Schema } from '../../shared/api';

export type Me = Schema<'MeResponse'>;
export type LoginAnswer = Schema<'LoginResponse'>;
export type Mode = Me['session']['mode'];

export function getMe(signal?: AbortSignal): Promise<Me> {
  return unwrap(portalApi.GET('/api/portal/me', { signal }));
}

/** The password step. Its CSRF token replaces the pre-login one (it belongs to the new session). */
export async function signIn(email: string, password: string): Promise<LoginAnswer> {
  const answer = await unwrap(portalApi.POST('/api/portal/auth/login', { body: { email, password } }));
  rememberCsrfToken(answer.csrf_token);
  return answer;
}

/** The TOTP step: a new session under a new cookie, so a new CSRF token again. */
export async function signInWithTotp(code: string): Promise<LoginAnswer> {
  const answer = await unwrap(portalApi.POST('/api/portal/auth/login/totp', { body: { code } }));
  rememberCsrfToken(answer.csrf_token);
  return answer;
}

export async function signOut(): Promise<void> {
  try {
    await unwrap(portalApi.POST('/api/portal/auth/logout'));
  } finally {
    forgetCsrfToken();
  }
}

/** Live mode needs the current TOTP code (X-TOTP-Code); back to test needs nothing. */
export function setMode(mode: Mode, totp?: string): Promise<Schema<'ModeResponse'>> {
  return unwrap(portalApi.PUT('/api/portal/me/mode', { body: { mode }, headers: totp ? { 'X-TOTP-Code': totp } : undefined }));
}
