import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new endpoint signing secret, shown to the merchant once. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** HMAC-SHA256 over `<timestamp>.<body>`, lowercase hex. */
export function signPayload(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

/**
 * `t=<unix seconds>,v1=<hex>`; during a secret rotation's grace period a second `v1=` carries the
 * signature with the previous secret, so receivers still on the old one keep verifying.
 */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${signPayload(s, timestamp, body)}`)].join(',');
}

/** The receiver's check (used by tests and documented in docs/webhooks.md). */
export function verifySignatureHeader(secret: string, header: string, body: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const parts = header.split(',').map((p) => p.split('='));
  // Unix seconds as digits only, as signed: `1700000000.0` or `1.7e9` name the same second but are not the header's form.
  const timestamp = parts.find(([k]) => k === 't')?.[1] ?? '';
  const t = Number(timestamp);
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signPayload(secret, t, body), 'hex');
  return parts
    .filter(([k]) => k === 'v1')
    .some(([, v]) => {
      const given = Buffer.from(v ?? '', 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
