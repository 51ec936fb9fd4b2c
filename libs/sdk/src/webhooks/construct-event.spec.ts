import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { WebhookSignatureError } from '../errors.js';
import { canonicalJson } from './canonical-json.js';
import { constructEvent } from './construct-event.js';

/** The spec's reference receiver in Python (it re-serialises the parsed payload before verifying). */
const PYTHON_RECEIVER = join(__dirname, '../../../../docs/examples/webhooks/receiver.py');
const SECRET = 'whsec_unit_test_secret';
const NOW = 1_700_000_000;
const at = (seconds: number) => new Date(seconds * 1000);

/** Payloads whose canonical bytes differ from JSON.stringify's in every way that matters. */
const PAYLOADS: Record<string, unknown>[] = [
  { event: 'payment.success', id: 'evt_1', created_at: '2025-01-01T00:00:00.000Z', mode: 'test', reference: 'PAY-1', amount: 5000.5, metadata: {} },
  { id: 'evt_2', event: 'customer.created', mode: 'live', api_version: 'v2', data: { email: 'é@example.com', name: 'Zoë 😀 "quoted" \\ \n\t\u2028\u007f\u0000' } },
  { id: 'evt_3', event: 'payment.failed', metadata: { tiny: 0.00001, small: 1e-7, huge: 1e21, big: 123456789012345680000, neg: -0, tenth: 0.1, max: 1.5e300, min: 5e-324 } },
  { id: 'evt_4', event: 'payment.success', metadata: { '\uffff': 1, '😀': 2, b: [null, true, false, { z: 1, a: 2 }], a: 'lone \ud800 surrogate' } },
];

/** What Python's json.dumps(obj, sort_keys=True, separators=(",", ":")) writes for each payload. */
function pythonCanonical(payloads: unknown[]): string[] {
  const script = 'import json,sys\nfor line in sys.stdin: print(json.dumps(json.loads(line), sort_keys=True, separators=(",", ":")))';
  const run = spawnSync('python3', ['-c', script], { input: payloads.map((p) => JSON.stringify(p)).join('\n') + '\n', encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return run.stdout.trimEnd().split('\n');
}

/** The Python reference receiver's own verify() for each case: true or false. */
function pythonVerdicts(cases: Array<{ header: string; body: string; secret: string; now: number }>): boolean[] {
  const script = [
    'import importlib.util,json,sys',
    'spec = importlib.util.spec_from_file_location("receiver", sys.argv[1]); receiver = importlib.util.module_from_spec(spec); spec.loader.exec_module(receiver)',
    'for line in sys.stdin:',
    '    c = json.loads(line)',
    '    print(receiver.verify(c["header"], json.loads(c["body"]), c["secret"], now=c["now"]))',
  ].join('\n');
  const run = spawnSync('python3', ['-c', script, PYTHON_RECEIVER], { input: cases.map((c) => JSON.stringify(c)).join('\n') + '\n', encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return run.stdout.trimEnd().split('\n').map((v) => v === 'True');
}

const sign = (secret: string, t: number, body: string) => createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');
const header = (body: string, t = NOW, secrets = [SECRET]) => [`t=${t}`, ...secrets.map((s) => `v1=${sign(s, t, body)}`)].join(',');
const headers = (value: string) => new Headers({ 'X-Gateway-Signature': value });
const bodies = pythonCanonical(PAYLOADS);

describe('constructEvent', () => {
  it("re-serialises a payload exactly as Python's json.dumps(sort_keys=True, separators=(',', ':')) does", () => {
    expect(PAYLOADS.map(canonicalJson)).toEqual(bodies);
  });

  it('accepts the raw body (text or bytes) signed as the gateway signs it, and returns the parsed event', async () => {
    for (const body of bodies) {
      await expect(constructEvent(body, headers(header(body)), SECRET, { now: at(NOW) })).resolves.toEqual(JSON.parse(body));
      await expect(constructEvent(new TextEncoder().encode(body), headers(header(body)), SECRET, { now: at(NOW) })).resolves.toEqual(JSON.parse(body));
    }
  });

  it('accepts the payload re-serialised by a framework that parsed it (other key order, unescaped text, indentation)', async () => {
    for (const [i, body] of bodies.entries()) {
      const parsed = JSON.parse(body);
      for (const rewritten of [JSON.stringify(PAYLOADS[i]), JSON.stringify(parsed, null, 2)]) {
        expect(rewritten).not.toBe(body);
        await expect(constructEvent(rewritten, headers(header(body)), SECRET, { now: at(NOW) })).resolves.toEqual(parsed);
      }
    }
  });

  it('agrees with the Python reference receiver on every accepted and rejected form', async () => {
    const cases = bodies.flatMap((body) => [
      { header: header(body), body, secret: SECRET, now: NOW },
      { header: header(body), body: JSON.stringify(JSON.parse(body)), secret: SECRET, now: NOW },
      { header: header(body), body, secret: `${SECRET}x`, now: NOW },
      { header: header(body), body, secret: SECRET, now: NOW + 301 },
      { header: header(body.replace('evt_', 'evt_x')), body, secret: SECRET, now: NOW },
    ]);
    const ours = await Promise.all(
      cases.map((c) =>
        constructEvent(c.body, headers(c.header), c.secret, { now: at(c.now) }).then(
          () => true,
          () => false,
        ),
      ),
    );
    expect(ours).toEqual(pythonVerdicts(cases));
    expect(ours.filter(Boolean)).toHaveLength(bodies.length * 2);
  });

  it('accepts any of several secrets and a header signed with two during a rotation', async () => {
    const body = bodies[0];
    await expect(constructEvent(body, headers(header(body, NOW, ['whsec_new', 'whsec_old'])), 'whsec_old', { now: at(NOW) })).resolves.toMatchObject({ id: 'evt_1' });
    await expect(constructEvent(body, headers(header(body)), ['whsec_other', SECRET], { now: at(NOW) })).resolves.toMatchObject({ id: 'evt_1' });
  });

  it("reads the header from a fetch Headers or from Node's req.headers, whatever the case of its name", async () => {
    const body = bodies[0];
    const value = header(body);
    for (const given of [{ 'x-gateway-signature': value }, { 'X-GATEWAY-SIGNATURE': value }, { 'x-gateway-signature': [value] }]) {
      await expect(constructEvent(body, given, SECRET, { now: at(NOW) })).resolves.toMatchObject({ id: 'evt_1' });
    }
  });

  it('holds the timestamp to the tolerance, 300 s by default', async () => {
    const body = bodies[0];
    await expect(constructEvent(body, headers(header(body)), SECRET, { now: at(NOW + 300) })).resolves.toBeDefined();
    await expect(constructEvent(body, headers(header(body)), SECRET, { now: at(NOW - 300) })).resolves.toBeDefined();
    await expect(constructEvent(body, headers(header(body)), SECRET, { now: at(NOW + 301) })).rejects.toMatchObject({ reason: 'timestamp_outside_tolerance' });
    await expect(constructEvent(body, headers(header(body)), SECRET, { now: at(NOW + 60), toleranceSeconds: 30 })).rejects.toMatchObject({ reason: 'timestamp_outside_tolerance' });
  });

  describe('refuses what the gateway did not send', () => {
    const body = bodies[1];
    const digest = sign(SECRET, NOW, body);
    it.each([
      ['a changed body', header(body), body.replace('evt_2', 'evt_3'), 'signature_mismatch'],
      ['another secret', header(body, NOW, ['whsec_other']), body, 'signature_mismatch'],
      ['the timestamp changed after signing', `t=${NOW + 1},v1=${digest}`, body, 'signature_mismatch'],
      ['a flipped digest', `t=${NOW},v1=${digest.slice(0, -1)}${digest.endsWith('0') ? '1' : '0'}`, body, 'signature_mismatch'],
      ['the digest of another body', header(`${body} `), body, 'signature_mismatch'],
      ['a truncated digest', `t=${NOW},v1=${digest.slice(0, 62)}`, body, 'malformed_header'],
      ['no digest', `t=${NOW}`, body, 'malformed_header'],
      ['a v0 digest only', `t=${NOW},v0=${digest}`, body, 'malformed_header'],
      ['no timestamp', `v1=${digest}`, body, 'malformed_header'],
      ['a timestamp that is not whole seconds', `t=${NOW}.0,v1=${digest}`, body, 'malformed_header'],
      ['an exponent timestamp', `t=1.7e9,v1=${digest}`, body, 'malformed_header'],
    ])('%s', async (_, value, received, reason) => {
      const error = await constructEvent(received, headers(value), SECRET, { now: at(NOW) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookSignatureError);
      expect(error).toMatchObject({ name: 'WebhookSignatureError', reason });
    });

    it('no signature header at all', async () => {
      await expect(constructEvent(body, new Headers(), SECRET, { now: at(NOW) })).rejects.toMatchObject({ reason: 'missing_header' });
      await expect(constructEvent(body, {}, SECRET, { now: at(NOW) })).rejects.toMatchObject({ reason: 'missing_header' });
    });

    it('a signed body that is not JSON', async () => {
      await expect(constructEvent('not json', headers(header('not json')), SECRET, { now: at(NOW) })).rejects.toMatchObject({ reason: 'invalid_payload' });
    });

    it('no secret to check with (a configuration mistake, not a forged request)', async () => {
      await expect(constructEvent(body, headers(header(body)), '', { now: at(NOW) })).rejects.toBeInstanceOf(TypeError);
      await expect(constructEvent(body, headers(header(body)), [], { now: at(NOW) })).rejects.toBeInstanceOf(TypeError);
    });
  });
});
