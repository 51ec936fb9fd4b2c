import type { MiddlewareCallbackParams } from 'openapi-fetch';
import { sessionExpiryMiddleware } from './portal-client';
import { onSessionExpired } from './session-expiry';

/** The middleware's view of one call: the request made and the answer to it. */
function call(path: string, status: number, body: unknown) {
  const request = new Request(`http://portal.test${path}`, { method: 'PUT' });
  const response = new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  return { request, response } as unknown as MiddlewareCallbackParams & { response: Response };
}

describe('sessionExpiryMiddleware', () => {
  let ended: number;
  let stop: () => void;

  beforeEach(() => {
    ended = 0;
    stop = onSessionExpired(() => ended++);
  });
  afterEach(() => stop());

  it('ends the session on a 401 authentication_failed', async () => {
    await sessionExpiryMiddleware.onResponse?.(call('/api/portal/keys', 401, { success: false, code: 'authentication_failed', message: 'Sign in.' }));
    expect(ended).toBe(1);
  });

  it('keeps the session on a wrong step-up code (401 totp_invalid), and leaves the body readable for the form', async () => {
    const params = call('/api/portal/me/mode', 401, { success: false, code: 'totp_invalid', message: 'The code is not valid.' });
    await sessionExpiryMiddleware.onResponse?.(params);
    expect(ended).toBe(0);
    await expect(params.response.json()).resolves.toMatchObject({ code: 'totp_invalid' });
  });

  it('leaves the sign-in steps alone', async () => {
    await sessionExpiryMiddleware.onResponse?.(call('/api/portal/auth/login', 401, { success: false, code: 'authentication_failed', message: 'Invalid e-mail or password.' }));
    expect(ended).toBe(0);
  });
});
