import { signatureHeader, signPayload, webhookBody } from '@gateway/domain/webhooks';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/*
 * The generated webhook deliveries of reliability row 8 (webhook signatures) and their mutations,
 * shared by the row itself (the two reference verifiers) and by the SDK's verifier row.
 */

const PYTHON_RECEIVER = join(__dirname, '../../../../docs/examples/webhooks/receiver.py');
const PYTHON_BATCH = join(__dirname, 'receiver_verify.py');
export const SEED = Number(process.env.RELIABILITY_SEED ?? 20261126);

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

export interface Delivery {
  header: string;
  body: string;
  secret: string;
  now: number;
}

export const MUTATIONS = ['body', 'stale-timestamp', 'swapped-timestamp', 'other-secret', 'flipped-digest', 'truncated-digest', 'no-digest', 'no-timestamp', 'timestamp-not-a-number', 'digest-of-another-body'] as const;
export type Mutation = (typeof MUTATIONS)[number];

/** A delivery exactly as the dispatcher signs it: canonical body, `t=…,v1=…` (two v1 during a secret rotation). */
export function deliveries(count: number): Delivery[] {
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
export function mutate(d: Delivery, kind: Mutation, i: number): Delivery {
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

/** Each delivery with the mutation its position picks, cycling through every kind. */
export function mutations(cases: Delivery[]): Array<{ kind: Mutation; delivery: Delivery }> {
  return cases.map((c, i) => ({ kind: MUTATIONS[i % MUTATIONS.length], delivery: mutate(c, MUTATIONS[i % MUTATIONS.length], i) }));
}

/** The published Python receiver's verify() over every delivery, in one process: 'accept' or 'reject' each. */
export function pythonVerdicts(cases: Delivery[]): string[] {
  const run = spawnSync('python3', [PYTHON_BATCH, PYTHON_RECEIVER], { input: cases.map((c) => JSON.stringify(c)).join('\n') + '\n', encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(run.stderr).toBe('');
  return run.stdout.trim().split('\n');
}
