import { WebhookSignatureError } from '../errors.js';
import { canonicalJson } from './canonical-json.js';
import type { WebhookEvent } from './events.js';

export const SIGNATURE_HEADER = 'X-Gateway-Signature';

/** A fetch `Headers`, or a plain object of them (Node's `req.headers`, any case of the name). */
export type WebhookHeaders = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

export interface ConstructEventOptions {
  /** How far the signature's timestamp may be from now; default 300 (the spec's tolerance). */
  toleranceSeconds?: number;
  /** "Now", for tests; default the current time. */
  now?: Date;
}

/**
 * Verifies a webhook delivery and returns its event; throws WebhookSignatureError unless it is
 * genuine and fresh. Pass the body exactly as received (bytes or text). `X-Gateway-Signature` is
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, with a second `v1=` while the endpoint's
 * previous secret is still in its grace period; `secret` may be several (yours, during your own rotation).
 *
 * Accepted: a timestamp within `toleranceSeconds` of now and a v1 digest matching either
 * - the raw body (the spec's raw-body reference verifier), or
 * - the payload re-serialised with sorted keys and compact separators (the spec's other reference
 *   verifier, Python's json.dumps(sort_keys=True, separators=(",", ":"))), so a body your framework
 *   parsed and wrote back (`JSON.stringify(req.body)`) still verifies.
 * Digests are compared in constant time. Web Crypto only: the same code runs in Node 20 and browsers.
 */
export async function constructEvent(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string | readonly string[], options: ConstructEventOptions = {}): Promise<WebhookEvent> {
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s === '')) throw new TypeError('constructEvent needs the endpoint secret (whsec_…).');
  const header = headerValue(headers, SIGNATURE_HEADER);
  if (header === undefined) throw new WebhookSignatureError('missing_header', `No ${SIGNATURE_HEADER} header.`);
  const { timestamp, digests } = parseSignatureHeader(header);
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - timestamp) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookSignatureError('timestamp_outside_tolerance', `The signature's timestamp is more than ${options.toleranceSeconds ?? 300} s from now.`);
  }

  const bytes = typeof rawBody === 'string' ? utf8(rawBody) : rawBody;
  const text = new TextDecoder().decode(bytes);
  const payload = parseJson(text);
  const signedForms = [bytes];
  const canonical = payload.ok ? canonicalOrUndefined(payload.value) : undefined;
  if (canonical !== undefined && canonical !== text) signedForms.push(utf8(canonical));

  let verified = false;
  for (const s of secrets) {
    const key = await crypto.subtle.importKey('raw', utf8(s), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    for (const form of signedForms) {
      const expected = new Uint8Array(await crypto.subtle.sign('HMAC', key, concat(utf8(`${timestamp}.`), form)));
      // Every candidate is compared (no early exit), each in constant time.
      for (const digest of digests) verified = constantTimeEqual(expected, digest) || verified;
    }
  }
  if (!verified) throw new WebhookSignatureError('signature_mismatch', 'No v1 signature matches the body and the secret.');
  if (!payload.ok) throw new WebhookSignatureError('invalid_payload', 'The signed body is not JSON.');
  return payload.value as WebhookEvent;
}

/** `t=` (the first, digits only) and every well-formed `v1=` of the header. */
function parseSignatureHeader(header: string): { timestamp: number; digests: Uint8Array[] } {
  const pairs = header.split(',').map((part) => {
    const at = part.indexOf('=');
    return at < 0 ? [part.trim(), ''] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
  });
  const t = pairs.find(([k]) => k === 't')?.[1] ?? '';
  // Unix seconds as the gateway writes them: `1700000000.0` or `1.7e9` are refused, as the reference verifiers refuse them.
  if (!/^\d+$/.test(t)) throw new WebhookSignatureError('malformed_header', `${SIGNATURE_HEADER} has no t=<unix seconds>.`);
  const digests = pairs.filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/i.test(v)).map(([, v]) => hexBytes(v));
  if (digests.length === 0) throw new WebhookSignatureError('malformed_header', `${SIGNATURE_HEADER} has no v1=<hex digest>.`);
  return { timestamp: Number(t), digests };
}

function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const lower = name.toLowerCase();
  const found = Object.entries(headers as Record<string, string | string[] | undefined>).find(([k]) => k.toLowerCase() === lower)?.[1];
  return Array.isArray(found) ? found.join(',') : found;
}

function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i] ^ b[i];
  return difference === 0;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** undefined for a value the gateway could not have signed (a number JSON.parse made infinite). */
function canonicalOrUndefined(value: unknown): string | undefined {
  try {
    return canonicalJson(value);
  } catch {
    return undefined;
  }
}

function utf8(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text);
}

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from({ length: hex.length / 2 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
