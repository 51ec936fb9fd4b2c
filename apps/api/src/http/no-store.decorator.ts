import { Header } from '@nestjs/common';

/**
 * `Cache-Control: no-store` on a route whose response carries a secret shown once (a new API key,
 * a webhook signing secret, a TOTP secret, a link or CSRF token): no browser, proxy or CDN cache
 * may keep a copy of it. Set by Nest on every answer the handler path produces, and by the
 * idempotency guard on replays of them; error envelopes carry no secret.
 */
export function NoStore(): MethodDecorator {
  return Header('Cache-Control', 'no-store');
}
