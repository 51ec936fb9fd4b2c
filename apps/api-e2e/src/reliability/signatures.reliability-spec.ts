import { verifySignatureHeader } from '@gateway/domain/webhooks';
import { deliveries, MUTATIONS, mutations, pythonVerdicts } from './signature-deliveries';
import { trials } from './trials';

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
    const mutated = mutations(cases);
    const rawAccepted = mutated.filter(({ delivery: d }) => verifySignatureHeader(d.secret, d.header, d.body, d.now));
    expect(rawAccepted.slice(0, 3)).toEqual([]);
    const verdicts = pythonVerdicts(mutated.map((m) => m.delivery));
    expect(verdicts).toHaveLength(count);
    expect(mutated.filter((_, i) => verdicts[i] !== 'reject').slice(0, 3)).toEqual([]);
  });
});
