import { signatureHeader, signPayload, verifySignatureHeader, webhookBody } from '@gateway/domain/webhooks';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { trials } from './trials';

const PYTHON_RECEIVER = join(__dirname, '../../../../docs/examples/webhooks/receiver.py');
const PYTHON_BATCH = join(__dirname, 'receiver_verify.py');
const SEED = Number(process.env.RELIABILITY_SEED ?? 20261126);

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

interface Delivery {
  header: string;
  body: string;
  secret: string;
  now: number;
}

const MUTATIONS = ['body', 'stale-timestamp', 'swapped-timestamp', 'other-secret', 'flipped-digest', 'truncated-digest', 'no-digest', 'no-timestamp', 'timestamp-not-a-number', 'digest-of-another-body'] as const;

/** A delivery exactly as the dispatcher signs it: canonical body, `t=…,v1=…` (two v1 during a secret rotation). */
function deliveries(count: number): Delivery[] {
  return fc
    .sample(
      fc.record({
        reference: anyText,
        amount: fc.double({ min: 0.01, max: 1e8, noNaN: true }),
        metadata: fc.dictionary(anyText, metadata, { maxKeys: 6 }),
        version: fc.constantFrom('v1' as const, 'v2' as const),
        rotating: fc.boolean(),
      }),
      { numRuns: count, seed: SEED },
    )
    .map(({ version, rotating, ...data }, i) => {
      const body = webhookBody({ id: `evt_${i}`, name: 'payment.success', mode: 'test', data, createdAt: new Date(1_700_000_000_000) }, version);
      const secret = `whsec_${i}_${SEED}`;
      const now = 1_700_000_000 + i;
      return { body, secret, now, header: signatureHeader(rotating ? [secret, `whsec_previous_${i}`] : [secret], now, body) };
    });
}

/** The same delivery, altered so that no receiver may accept it. */
function mutate(d: Delivery, kind: (typeof MUTATIONS)[number], i: number): Delivery {
  const digest = signPayload(d.secret, d.now, d.body);
  switch (kind) {
    case 'body': {
      const payload = JSON.parse(d.body) as Record<string, unknown>;
      payload.id = `${String(payload.id)}x`;
      return { ...d, body: JSON.stringify(payload) };
    }
    case 'stale-timestamp': {
      const t = d.now + (i % 2 ? 1 : -1) * (301 + (i % 86_400));
      return { ...d, header: `t=${t},v1=${signPayload(d.secret, t, d.body)}` };
    }
    case 'swapped-timestamp':
      return { ...d, header: `t=${d.now + 1},v1=${digest}` };
    case 'other-secret':
      return { ...d, header: `t=${d.now},v1=${signPayload(`${d.secret}x`, d.now, d.body)}` };
    case 'flipped-digest': {
      const at = i % digest.length;
      const flipped = digest.slice(0, at) + (digest[at] === '0' ? '1' : '0') + digest.slice(at + 1);
      return { ...d, header: `t=${d.now},v1=${flipped}` };
    }
    case 'truncated-digest':
      return { ...d, header: `t=${d.now},v1=${digest.slice(0, 62)}` };
    case 'no-digest':
      return { ...d, header: `t=${d.now}` };
    case 'no-timestamp':
      return { ...d, header: `v1=${digest}` };
    case 'timestamp-not-a-number':
      return { ...d, header: `t=${d.now}.0,v1=${digest}` };
    case 'digest-of-another-body':
      return { ...d, header: `t=${d.now},v1=${signPayload(d.secret, d.now, `${d.body} `)}` };
  }
}

/** The published Python receiver's verify() over every delivery, in one process. */
function pythonVerdicts(cases: Delivery[]): string[] {
  const run = spawnSync('python3', [PYTHON_BATCH, PYTHON_RECEIVER], { input: cases.map((c) => JSON.stringify(c)).join('\n') + '\n', encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(run.stderr).toBe('');
  return run.stdout.trim().split('\n');
}

/**
 * Reliability row 8 (webhook signatures): generated deliveries verify under both reference
 * verifiers of the spec — the raw-body one and the published Python receiver, which re-serialises
 * the parsed payload with sorted keys — and every mutation of body, timestamp, secret or header
 * form is rejected by both.
 */
describe('reliability: webhook signatures under both reference verifiers', () => {
  const count = trials(10_000);
  const cases = deliveries(count);

  it(`${count} generated deliveries verify under the raw-body verifier and the Python receiver`, () => {
    const rawRejected = cases.filter((c) => !verifySignatureHeader(c.secret, c.header, c.body, c.now));
    expect(rawRejected).toEqual([]);
    const verdicts = pythonVerdicts(cases);
    expect(verdicts).toHaveLength(count);
    expect(cases.filter((_, i) => verdicts[i] !== 'accept').slice(0, 3)).toEqual([]);
  });

  it(`${count} mutations (${MUTATIONS.length} kinds: body, timestamp, secret, header form) are rejected by both`, () => {
    const mutated = cases.map((c, i) => ({ kind: MUTATIONS[i % MUTATIONS.length], delivery: mutate(c, MUTATIONS[i % MUTATIONS.length], i) }));
    const rawAccepted = mutated.filter(({ delivery: d }) => verifySignatureHeader(d.secret, d.header, d.body, d.now));
    expect(rawAccepted.slice(0, 3)).toEqual([]);
    const verdicts = pythonVerdicts(mutated.map((m) => m.delivery));
    expect(verdicts).toHaveLength(count);
    expect(mutated.filter((_, i) => verdicts[i] !== 'reject').slice(0, 3)).toEqual([]);
  });
});
