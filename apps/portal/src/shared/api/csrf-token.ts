/**
 * The portal API's CSRF token, held in memory only: it is readable by our own scripts anyway (it
 * comes in response bodies), and keeping it out of storage means a new tab or reload simply asks
 * `GET /api/portal/auth/csrf` again, which answers the token of the current session (or, signed
 * out, a fresh double-submit token with its cookie).
 */
let current: string | undefined;

export const CSRF_PATH = '/api/portal/auth/csrf';

export function rememberCsrfToken(token: string): void {
  current = token;
}

export function forgetCsrfToken(): void {
  current = undefined;
}

/** The token to send, asking the API for one when none is held yet. */
export async function csrfToken(fetchImpl: typeof fetch = fetch): Promise<string> {
  if (current) return current;
  const response = await fetchImpl(CSRF_PATH, { credentials: 'include', headers: { accept: 'application/json' } });
  const body = (await response.json()) as { data?: { csrf_token?: unknown } };
  const token = body.data?.csrf_token;
  if (typeof token !== 'string') throw new Error(`GET ${CSRF_PATH} answered ${response.status} without a token.`);
  current = token;
  return token;
}
