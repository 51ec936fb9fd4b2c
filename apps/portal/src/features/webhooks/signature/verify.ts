import { canonicalJson } from './canonical-json';

/**
 * The signature debugger's logic: the checks a receiver makes (docs/webhooks.md, "Verifying a
 * delivery"), each one reported on its own with why it failed. Runs in the browser with Web Crypto:
 * the secret never leaves the page.
 */

/** A delivery older or newer than this (seconds) is refused: a replay, or a clock that is off. */
export const TOLERANCE_SECONDS = 300;

export type CheckOutcome = 'pass' | 'fail' | 'skipped';

export interface Check {
  outcome: CheckOutcome;
  detail: string;
}

export interface DigestCheck extends Check {
  /** The v1 this secret gives for these bytes (lowercase hex), when it could be computed. */
  expected?: string;
}

export interface ParsedHeaders {
  /** The value of X-Gateway-Signature (or a bare `t=…,v1=…` line), if any. */
  signature?: string;
  /** The value of X-Gateway-Timestamp, if pasted. */
  timestamp?: string;
}

export interface SignatureParts {
  timestamp?: number;
  /** Every `v1=` value, in order: the current secret's first, the previous secret's second during a rotation. */
  signatures: string[];
  problems: string[];
}

export interface DebugInput {
  /** The request body exactly as received. */
  body: string;
  /** The request's headers as pasted, one `Name: value` per line (others are ignored). */
  headers: string;
  secret: string;
  /** Unix seconds to judge the timestamp against (the browser's clock). */
  nowSeconds: number;
}

export type Verdict = 'valid' | 'canonical_only' | 'invalid';

export interface DebugReport {
  verdict: Verdict;
  /** Why, most important first; empty when valid. */
  reasons: string[];
  header: Check;
  timestamp: Check;
  rawBody: DigestCheck;
  canonicalBody: DigestCheck;
}

/** HMAC-SHA256 of `message` under `secret`, lowercase hex. */
export type HmacHex = (secret: string, message: string) => Promise<string>;

const encoder = new TextEncoder();

/** HMAC-SHA256 with the browser's (or Node's) Web Crypto; both strings are taken as UTF-8. */
export const webCryptoHmacHex: HmacHex = async (secret, message) => {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const digest = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
};

/**
 * Finds X-Gateway-Signature and X-Gateway-Timestamp among pasted header lines (any case, any
 * order, other headers ignored). A line that is only `t=…,v1=…` counts as the signature.
 */
export function parseHeaders(text: string): ParsedHeaders {
  const parsed: ParsedHeaders = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim().toLowerCase() : '';
    const value = colon > 0 ? line.slice(colon + 1).trim() : line;
    if (name === 'x-gateway-signature') parsed.signature = value;
    else if (name === 'x-gateway-timestamp') parsed.timestamp = value;
    else if (!name && /^t=/.test(value)) parsed.signature = value;
  }
  return parsed;
}

/** `t=<unix seconds>,v1=<hex>[,v1=<hex>]` into its parts, with what is wrong with it. */
export function parseSignature(header: string): SignatureParts {
  const parts: SignatureParts = { signatures: [], problems: [] };
  for (const piece of header.split(',')) {
    const at = piece.indexOf('=');
    const key = (at < 0 ? piece : piece.slice(0, at)).trim();
    const value = at < 0 ? '' : piece.slice(at + 1).trim();
    if (key === 't') {
      if (/^\d+$/.test(value)) parts.timestamp = Number(value);
      else parts.problems.push(`t=${value} is not a whole number of seconds.`);
    } else if (key === 'v1') {
      if (/^[0-9a-fA-F]{64}$/.test(value)) parts.signatures.push(value.toLowerCase());
      else parts.problems.push(`v1=${value} is not 64 hexadecimal digits (an HMAC-SHA256).`);
    } else if (key) {
      parts.problems.push(`"${key}" is not part of the format (ignored).`);
    }
  }
  if (parts.timestamp === undefined) parts.problems.unshift('There is no t=<unix seconds>.');
  if (parts.signatures.length === 0) parts.problems.unshift('There is no v1=<hex> signature.');
  return parts;
}

/** Whether `timestamp` lies within TOLERANCE_SECONDS of `nowSeconds`, and how far off it is. */
export function checkTimestamp(timestamp: number, nowSeconds: number): Check {
  const age = nowSeconds - timestamp;
  const distance = Math.abs(age);
  const when = age >= 0 ? `${distance} s ago` : `${distance} s in the future`;
  if (distance <= TOLERANCE_SECONDS) return { outcome: 'pass', detail: `Signed ${when}: within ${TOLERANCE_SECONDS} s.` };
  return {
    outcome: 'fail',
    detail:
      `Signed ${when} (${new Date(timestamp * 1000).toISOString()}): outside ${TOLERANCE_SECONDS} s, so a receiver refuses it as a replay. ` +
      'Every attempt, retries included, is signed afresh, so an old timestamp means a delivery captured earlier — or a clock that is off (check NTP on the receiver).',
  };
}

/** Which v1 (1-based) equals `expected`, or 0. */
function matchIndex(signatures: string[], expected: string): number {
  return signatures.indexOf(expected) + 1;
}

function matchedDetail(index: number, what: string): string {
  const previous = index > 1 ? ' That is the second v1: the previous secret, during a rotation’s grace period. Deploy the new secret.' : '';
  return `HMAC-SHA256 of "<t>.<${what}>" with this secret matches v1 #${index}.${previous}`;
}

/** Runs every check on one pasted delivery. */
export async function debugSignature(input: DebugInput, hmacHex: HmacHex = webCryptoHmacHex): Promise<DebugReport> {
  const headers = parseHeaders(input.headers);
  const skipped = (detail: string): Check => ({ outcome: 'skipped', detail });
  if (!headers.signature) {
    const detail = 'No X-Gateway-Signature header found. Paste the request’s headers, one per line ("X-Gateway-Signature: t=…,v1=…").';
    return { verdict: 'invalid', reasons: [detail], header: { outcome: 'fail', detail }, timestamp: skipped('Needs the signature header.'), rawBody: skipped('Needs the signature header.'), canonicalBody: skipped('Needs the signature header.') };
  }

  const parts = parseSignature(headers.signature);
  const mismatch = headers.timestamp !== undefined && parts.timestamp !== undefined && headers.timestamp !== String(parts.timestamp);
  const notes = [
    ...parts.problems,
    ...(mismatch ? [`X-Gateway-Timestamp (${headers.timestamp}) differs from the signature's t=${parts.timestamp}: the signature covers t; something rewrote a header.`] : []),
  ];
  const found = `t=${parts.timestamp}, ${parts.signatures.length} v1 signature${parts.signatures.length > 1 ? 's (two during a secret rotation)' : ''}.`;
  const unreadable = parts.timestamp === undefined || parts.signatures.length === 0;
  const header: Check = unreadable || mismatch ? { outcome: 'fail', detail: notes.join(' ') } : { outcome: 'pass', detail: [found, ...notes].join(' ') };
  if (parts.timestamp === undefined || parts.signatures.length === 0) {
    const needs = skipped('Needs t= and v1= in the signature header.');
    return { verdict: 'invalid', reasons: [`The signature header cannot be used: ${header.detail}`], header, timestamp: needs, rawBody: needs, canonicalBody: needs };
  }
  // A t / X-Gateway-Timestamp mismatch fails the header check but not the digest checks: they use t.
  const t = parts.timestamp;
  const timestamp = checkTimestamp(t, input.nowSeconds);

  if (!input.secret) {
    const detail = 'Paste the endpoint’s signing secret (whsec_…).';
    return { verdict: 'invalid', reasons: [detail], header, timestamp, rawBody: skipped(detail), canonicalBody: skipped(detail) };
  }

  const rawExpected = await hmacHex(input.secret, `${t}.${input.body}`);
  const rawIndex = matchIndex(parts.signatures, rawExpected);
  const rawBody: DigestCheck = rawIndex
    ? { outcome: 'pass', expected: rawExpected, detail: matchedDetail(rawIndex, 'raw body') }
    : { outcome: 'fail', expected: rawExpected, detail: `No v1 equals HMAC-SHA256 of "<t>.<raw body>" with this secret (expected v1=${rawExpected}).` };

  const canonicalBody = await checkCanonicalBody(input, t, parts.signatures, rawBody, hmacHex);

  const reasons: string[] = [];
  if (header.outcome === 'fail') reasons.push(header.detail);
  if (timestamp.outcome === 'fail') reasons.push(`Timestamp outside ${TOLERANCE_SECONDS} s. ${timestamp.detail}`);
  if (rawBody.outcome === 'fail' && canonicalBody.outcome === 'pass') {
    reasons.push(
      'The body’s bytes changed: what was pasted is not the raw body that was signed (e.g. JSON re-serialised or re-indented by a framework), so a raw-body verifier fails, ' +
        'while a verifier that re-serialises the parsed payload with sorted keys and compact separators passes. Verify the exact bytes received, before any JSON parsing.',
    );
  } else if (rawBody.outcome === 'fail') {
    reasons.push(secretOrDigestReason(input.secret, canonicalBody.outcome === 'skipped'));
  }
  const digestOk = rawBody.outcome === 'pass' || canonicalBody.outcome === 'pass';
  const verdict: Verdict = header.outcome === 'fail' || timestamp.outcome === 'fail' || !digestOk ? 'invalid' : rawBody.outcome === 'pass' ? 'valid' : 'canonical_only';
  return { verdict, reasons, header, timestamp, rawBody, canonicalBody };
}

/** The second reference verifier: the parsed payload re-serialised with sorted keys and compact separators. */
async function checkCanonicalBody(input: DebugInput, t: number, signatures: string[], rawBody: DigestCheck, hmacHex: HmacHex): Promise<DigestCheck> {
  let canonical: string;
  try {
    canonical = canonicalJson(JSON.parse(input.body));
  } catch (error) {
    return { outcome: 'skipped', detail: `The body is not JSON (${error instanceof Error ? error.message : String(error)}), so it cannot be re-serialised.` };
  }
  if (canonical === input.body) {
    return { ...rawBody, detail: `The body already is canonical (sorted keys, compact separators): the same bytes as the raw-body check. ${rawBody.detail}` };
  }
  const expected = await hmacHex(input.secret, `${t}.${canonical}`);
  const index = matchIndex(signatures, expected);
  return index
    ? { outcome: 'pass', expected, detail: `${matchedDetail(index, 'sorted keys, compact JSON')} The parsed payload re-serialised gives back the bytes that were signed.` }
    : { outcome: 'fail', expected, detail: `No v1 equals HMAC-SHA256 of the parsed payload re-serialised with sorted keys and compact separators (expected v1=${expected}).` };
}

function secretOrDigestReason(secret: string, notJson: boolean): string {
  const hints: string[] = [];
  if (secret !== secret.trim()) hints.push('The secret has spaces or line breaks around it.');
  if (!secret.trim().startsWith('whsec_')) hints.push('Signing secrets start with whsec_ (an API key is not a signing secret).');
  return (
    'Secret or digest mismatch: no v1 matches, neither over the raw body' +
    (notJson ? '' : ' nor over its canonical form') +
    '. Either the secret is not the one signing this endpoint (another endpoint’s, the other mode’s, or replaced by a rotation: a secret is shown once, when it is created or rotated), ' +
    'or the payload’s content changed (a value, not only the formatting).' +
    (hints.length ? ` ${hints.join(' ')}` : '')
  );
}
