import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { compareCodePoints, pythonCompatibleJson } from './python-compatible-json';
import { signatureHeader, signPayload, verifySignatureHeader } from './signature';
import { webhookBody } from './webhook-payload';

const PYTHON_VERIFIER = join(__dirname, '../test/python_verifier.py');

/** Merchant metadata is theirs: any keys, any text (astral, controls, lone surrogates), any JSON numbers. */
const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.constantFrom('\u2028', '\ud800', 'é', '😀', '\u007f', '\u0000'));
const metadata = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    anyText,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.constantFrom(1e-7, 0.00001, 1e21, 1.5e300, -0, 5e-324, 123456789012345680000, 0.1),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(anyText, tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('canonical webhook bodies', () => {
  it('verify under the raw-body verifier and Python json.dumps(sort_keys=True, separators=(",", ":")) for 400 generated payloads', () => {
    const cases = fc.sample(
      fc.record({ reference: anyText, amount: fc.double({ min: 0.01, max: 1e8, noNaN: true }), metadata: fc.dictionary(anyText, metadata, { maxKeys: 6 }), version: fc.constantFrom('v1' as const, 'v2' as const) }),
      { numRuns: 400, seed: 42 },
    ).map(({ version, ...data }, i) => {
      const body = webhookBody({ id: `evt_${i}`, name: 'payment.success', mode: 'test', data, createdAt: new Date(0) }, version);
      const timestamp = 1_700_000_000 + i;
      const secret = `whsec_test_${i}`;
      return { secret, timestamp, body, signature: signPayload(secret, timestamp, body) };
    });
    // Raw-body verifier (Node): the header verifies against the exact bytes sent.
    for (const c of cases) expect(verifySignatureHeader(c.secret, `t=${c.timestamp},v1=${c.signature}`, c.body, c.timestamp)).toBe(true);
    const python = spawnSync('python3', [PYTHON_VERIFIER], { input: cases.map((c) => JSON.stringify(c)).join('\n') + '\n', encoding: 'utf8' });
    expect(python.stderr).toBe('');
    const verdicts = python.stdout.trim().split('\n');
    expect(verdicts).toHaveLength(cases.length);
    expect(verdicts.filter((v) => v !== 'ok')).toEqual([]);
  });

  it('writes what Python writes for the known differences from JSON.stringify', () => {
    expect(pythonCompatibleJson({ b: 1, a: [0.00001, 1e-7, 1e21, 100.5, -0], é: 'é😀\n"\\' })).toBe('{"a":[1e-05,1e-07,1e+21,100.5,0],"b":1,"\\u00e9":"\\u00e9\\ud83d\\ude00\\n\\"\\\\"}');
    // U+FFFF sorts before U+10000 by code point, after it by UTF-16 unit.
    expect(compareCodePoints('\uffff', '😀')).toBeLessThan(0);
  });

  it('orders keys exactly as comparing their code points does, surrogates (paired or lone) included', () => {
    const codePoints = (s: string) => Array.from(s, (c) => c.codePointAt(0) as number);
    const byCodePoints = (a: string, b: string) => {
      const [x, y] = [codePoints(a), codePoints(b)];
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return Math.sign(x[i] - y[i]);
      return Math.sign(x.length - y.length);
    };
    // Short strings over a small alphabet meet often: shared prefixes, pairs split by the other
    // string's end, lone lead and trail surrogates next to BMP characters above them.
    const unit = fc.constantFrom('a', 'b', '\u00e9', '\ud7ff', '\ud83d', '\ude00', '\ude01', '\ud83e', '\ue000', '\uffff', '😀', '😁');
    const key = fc.array(unit, { maxLength: 4 }).map((units) => units.join(''));
    fc.assert(fc.property(key, key, (a, b) => Math.sign(compareCodePoints(a, b)) === byCodePoints(a, b)), { numRuns: 20_000, seed: 7 });
    fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => Math.sign(compareCodePoints(a, b)) === byCodePoints(a, b)), { numRuns: 5_000, seed: 8 });
  });

  it('signs with every given secret and refuses a stale timestamp or a tampered body', () => {
    const header = signatureHeader(['new', 'old'], 1000, '{}');
    expect(header).toMatch(/^t=1000,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verifySignatureHeader('old', header, '{}', 1000)).toBe(true);
    expect(verifySignatureHeader('new', header, '{}', 1299)).toBe(true);
    expect(verifySignatureHeader('new', header, '{}', 1301)).toBe(false);
    expect(verifySignatureHeader('new', header, '{"a":1}', 1000)).toBe(false);
    expect(verifySignatureHeader('other', header, '{}', 1000)).toBe(false);
  });
});
