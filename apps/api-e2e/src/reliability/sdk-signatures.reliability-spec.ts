import { verifySignatureHeader } from '@gateway/domain/webhooks';
import { canonicalJson, constructEvent } from '@gateway/sdk';
import { type Delivery, deliveries, mutations, pythonVerdicts } from './signature-deliveries';
import { timeoutFor, trials } from './trials';

/** The SDK's verdict on a delivery: 'accept' when constructEvent returns the event, else 'reject'. */
async function sdkVerdict(d: Delivery, body: string | Uint8Array = d.body): Promise<string> {
  try {
    const event = await constructEvent(body, { 'x-gateway-signature': d.header }, d.secret, { now: new Date(d.now * 1000) });
    // The event is the payload that was signed (compared by its canonical bytes: cheaper than a deep equal, as strict).
    return canonicalJson(event) === d.body ? 'accept' : 'accepted-another-payload';
  } catch (error) {
    if ((error as Error).name !== 'WebhookSignatureError') throw error;
    return 'reject';
  }
}

async function sdkVerdicts(cases: Delivery[], body?: (d: Delivery) => string | Uint8Array): Promise<string[]> {
  // In batches, so Web Crypto's work overlaps without holding every case in flight at once.
  const verdicts: string[] = [];
  for (let i = 0; i < cases.length; i += 200) verdicts.push(...(await Promise.all(cases.slice(i, i + 200).map((d) => sdkVerdict(d, body?.(d))))));
  return verdicts;
}

/**
 * The SDK's webhook verifier (libs/sdk constructEvent) over row 8's generated deliveries and
 * mutations: on every one it gives the verdict both reference verifiers give — the raw-body one and
 * the published Python receiver — and it also accepts each delivery as a framework that parsed the
 * body and wrote it back would hand it over (JSON.stringify: other key order, unescaped text).
 */
describe('reliability: the SDK webhook verifier agrees with both reference verifiers', () => {
  const count = trials(10_000);
  const cases = deliveries(count);

  it(
    `${count} generated deliveries: accepted raw, as bytes and re-serialised, as both references accept them`,
    async () => {
      // The SDK's re-serialiser writes the gateway's canonical bytes back from the parsed payload.
      expect(cases.filter((c) => canonicalJson(JSON.parse(c.body)) !== c.body).slice(0, 3)).toEqual([]);
      const python = pythonVerdicts(cases);
      const raw = cases.map((c) => (verifySignatureHeader(c.secret, c.header, c.body, c.now) ? 'accept' : 'reject'));
      expect(new Set([...python, ...raw])).toEqual(new Set(['accept']));
      expect(await sdkVerdicts(cases)).toEqual(python);
      expect(await sdkVerdicts(cases, (d) => new TextEncoder().encode(d.body))).toEqual(python);
      expect(await sdkVerdicts(cases, (d) => JSON.stringify(JSON.parse(d.body)))).toEqual(python);
    },
    timeoutFor(count, 10),
  );

  it(
    `${count} mutations: rejected, as both references reject them`,
    async () => {
      const mutated = mutations(cases).map((m) => m.delivery);
      const python = pythonVerdicts(mutated);
      const raw = mutated.map((d) => (verifySignatureHeader(d.secret, d.header, d.body, d.now) ? 'accept' : 'reject'));
      expect(new Set([...python, ...raw])).toEqual(new Set(['reject']));
      const sdk = await sdkVerdicts(mutated);
      expect(mutations(cases).filter((_, i) => sdk[i] !== 'reject').slice(0, 3)).toEqual([]);
    },
    timeoutFor(count, 10),
  );
});
