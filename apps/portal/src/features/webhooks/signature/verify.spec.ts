import { createHmac } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import { checkTimestamp, debugSignature, parseHeaders, parseSignature, webCryptoHmacHex } from './verify';

/** The gateway's signing, done independently with node:crypto (libs/domain/webhooks/src/signature.ts). */
function sign(secret: string, t: number, body: string): string {
  return createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');
}

const SECRET = 'whsec_Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5';
const NOW = 1_741_944_413;
/** A v2 body as the gateway sends it: sorted keys, compact, non-ASCII escaped. */
const BODY = '{"api_version":"v2","created_at":"2025-03-14T09:26:53.000Z","data":{"message":"caf\\u00e9 \\ud83d\\ude00","webhook_id":"whk_1"},"event":"webhook.test","id":"evt_1","mode":"test"}';

function delivery(options: { t?: number; secrets?: string[]; body?: string } = {}) {
  const t = options.t ?? NOW;
  const signed = options.body ?? BODY;
  const v1 = (options.secrets ?? [SECRET]).map((s) => `v1=${sign(s, t, signed)}`).join(',');
  return `Content-Type: application/json\nX-Gateway-Signature: t=${t},${v1}\nX-Gateway-Timestamp: ${t}\nX-Gateway-Event: webhook.test`;
}

describe('webhook signature debugger', () => {
  it('computes the same HMAC-SHA256 hex with Web Crypto as node:crypto', async () => {
    expect(await webCryptoHmacHex(SECRET, `${NOW}.${BODY}`)).toBe(sign(SECRET, NOW, BODY));
    expect(await webCryptoHmacHex('é', 'ü😀')).toBe(createHmac('sha256', 'é').update('ü😀', 'utf8').digest('hex'));
  });

  it('reads the headers in any case and order, or a bare t=…,v1=… line', () => {
    expect(parseHeaders('x-gateway-timestamp: 12\r\nX-GATEWAY-SIGNATURE:  t=12,v1=ab \nOther: x')).toEqual({ signature: 't=12,v1=ab', timestamp: '12' });
    expect(parseHeaders('t=12,v1=ab')).toEqual({ signature: 't=12,v1=ab' });
  });

  it('parses the signature header and says what is wrong with it', () => {
    const hex = 'a'.repeat(64);
    expect(parseSignature(`t=12,v1=${hex},v1=${'B'.repeat(64)}`)).toEqual({ timestamp: 12, signatures: [hex, 'b'.repeat(64)], problems: [] });
    expect(parseSignature('v1=xyz').problems).toEqual(['There is no v1=<hex> signature.', 'There is no t=<unix seconds>.', 'v1=xyz is not 64 hexadecimal digits (an HMAC-SHA256).']);
    expect(parseSignature(`t=soon,v1=${hex}`).problems).toContain('t=soon is not a whole number of seconds.');
  });

  it('accepts a timestamp up to 300 s either way, not 301', () => {
    expect(checkTimestamp(NOW - 300, NOW).outcome).toBe('pass');
    expect(checkTimestamp(NOW + 300, NOW).outcome).toBe('pass');
    expect(checkTimestamp(NOW - 301, NOW)).toMatchObject({ outcome: 'fail', detail: expect.stringContaining('301 s ago') });
    expect(checkTimestamp(NOW + 3600, NOW)).toMatchObject({ outcome: 'fail', detail: expect.stringContaining('3600 s in the future') });
  });

  it('a delivery as received, with the right secret, is valid under both verifiers', async () => {
    const report = await debugSignature({ body: BODY, headers: delivery(), secret: SECRET, nowSeconds: NOW + 5 });
    expect(report).toMatchObject({ verdict: 'valid', reasons: [], header: { outcome: 'pass' }, timestamp: { outcome: 'pass' }, rawBody: { outcome: 'pass' }, canonicalBody: { outcome: 'pass' } });
  });

  it('a wrong secret fails the digest checks and says the secret or the content differs', async () => {
    const report = await debugSignature({ body: BODY, headers: delivery(), secret: 'whsec_another', nowSeconds: NOW });
    expect(report).toMatchObject({ verdict: 'invalid', timestamp: { outcome: 'pass' }, rawBody: { outcome: 'fail' }, canonicalBody: { outcome: 'fail' } });
    expect(report.reasons).toEqual([expect.stringMatching(/^Secret or digest mismatch/)]);
    expect(report.rawBody.expected).toBe(sign('whsec_another', NOW, BODY));
  });

  it('hints at an API key pasted as the secret, or spaces around it', async () => {
    expect((await debugSignature({ body: BODY, headers: delivery(), secret: 'sk_test_123', nowSeconds: NOW })).reasons[0]).toContain('start with whsec_');
    expect((await debugSignature({ body: BODY, headers: delivery(), secret: ` ${SECRET}\n`, nowSeconds: NOW })).reasons[0]).toContain('spaces or line breaks');
  });

  it('a re-indented body fails the raw-body check but passes the canonical (sorted keys) one, and says so', async () => {
    const reindented = JSON.stringify(JSON.parse(BODY), null, 2);
    const report = await debugSignature({ body: reindented, headers: delivery(), secret: SECRET, nowSeconds: NOW });
    expect(report).toMatchObject({ verdict: 'canonical_only', rawBody: { outcome: 'fail' }, canonicalBody: { outcome: 'pass' } });
    expect(report.reasons).toEqual([expect.stringMatching(/^The body’s bytes changed/)]);
  });

  it('re-ordered keys pass the canonical check too; a changed value fails both', async () => {
    const { id, ...rest } = JSON.parse(BODY) as Record<string, unknown>;
    const reordered = JSON.stringify({ id, ...rest });
    expect((await debugSignature({ body: reordered, headers: delivery(), secret: SECRET, nowSeconds: NOW })).verdict).toBe('canonical_only');
    const changed = BODY.replace('"mode":"test"', '"mode":"live"');
    const report = await debugSignature({ body: changed, headers: delivery(), secret: SECRET, nowSeconds: NOW });
    expect(report).toMatchObject({ verdict: 'invalid', rawBody: { outcome: 'fail' }, canonicalBody: { outcome: 'fail' } });
  });

  it('an old timestamp fails the timestamp check only', async () => {
    const t = NOW - 3600;
    const report = await debugSignature({ body: BODY, headers: delivery({ t }), secret: SECRET, nowSeconds: NOW });
    expect(report).toMatchObject({ verdict: 'invalid', timestamp: { outcome: 'fail' }, rawBody: { outcome: 'pass' } });
    expect(report.reasons).toEqual([expect.stringMatching(/^Timestamp outside 300 s/)]);
  });

  it('during a rotation the previous secret matches the second v1, and says so', async () => {
    const report = await debugSignature({ body: BODY, headers: delivery({ secrets: ['whsec_new', SECRET] }), secret: SECRET, nowSeconds: NOW });
    expect(report.verdict).toBe('valid');
    expect(report.rawBody.detail).toContain('v1 #2');
  });

  it('reports a missing or unreadable header, a t that differs from X-Gateway-Timestamp, a missing secret, a body that is not JSON', async () => {
    expect((await debugSignature({ body: BODY, headers: 'Content-Type: application/json', secret: SECRET, nowSeconds: NOW })).header.outcome).toBe('fail');
    const noV1 = await debugSignature({ body: BODY, headers: `X-Gateway-Signature: t=${NOW}`, secret: SECRET, nowSeconds: NOW });
    expect(noV1).toMatchObject({ verdict: 'invalid', header: { outcome: 'fail' }, rawBody: { outcome: 'skipped' } });
    const rewritten = await debugSignature({ body: BODY, headers: delivery().replace(`X-Gateway-Timestamp: ${NOW}`, 'X-Gateway-Timestamp: 1'), secret: SECRET, nowSeconds: NOW });
    expect(rewritten).toMatchObject({ verdict: 'invalid', header: { outcome: 'fail', detail: expect.stringContaining('differs') }, rawBody: { outcome: 'pass' } });
    expect((await debugSignature({ body: BODY, headers: delivery(), secret: '', nowSeconds: NOW })).rawBody.outcome).toBe('skipped');
    const text = 'not json';
    const notJson = await debugSignature({ body: text, headers: delivery({ body: text }), secret: SECRET, nowSeconds: NOW });
    expect(notJson).toMatchObject({ verdict: 'valid', rawBody: { outcome: 'pass' }, canonicalBody: { outcome: 'skipped' } });
  });
});

describe('canonical JSON (what Python json.dumps(sort_keys=True, separators=(",", ":")) writes)', () => {
  it('gives back the documented wire body from its pretty-printed form', () => {
    const wire = '{"amount":5000,"authorization":{"bank":"Test Bank","last4":"4081"},"event":"payment.success","fees":{"platform":10,"provider":175},"metadata":{"order_id":"ORD-1042"},"splits":[]}';
    expect(canonicalJson(JSON.parse(JSON.stringify(JSON.parse(wire), null, 2)))).toBe(wire);
  });

  it('writes what Python writes where JSON.stringify differs', () => {
    expect(canonicalJson({ b: 1, a: [0.00001, 1e-7, 1e21, 100.5, -0], é: 'é😀\n"\\' })).toBe('{"a":[1e-05,1e-07,1e+21,100.5,0],"b":1,"\\u00e9":"\\u00e9\\ud83d\\ude00\\n\\"\\\\"}');
    // By code point, U+FFFF sorts before U+10000 (JS's default sort puts it after).
    expect(canonicalJson({ '😀': 1, '\uffff': 2 })).toBe('{"\\uffff":2,"\\ud83d\\ude00":1}');
  });
});
