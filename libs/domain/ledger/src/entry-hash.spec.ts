import { canonicalEntryText, entryHash, type HashedEntryFields } from './entry-hash';

/** The example entry of docs/ledger.md ("The hash chain"): an auditor's implementation must reproduce its hash. */
const DOCUMENTED_EXAMPLE: HashedEntryFields = {
  entryId: '00000000-0000-4000-8000-000000000001',
  postingId: '00000000-0000-4000-8000-000000000002',
  developerId: '00000000-0000-4000-8000-000000000003',
  mode: 'test',
  currency: 'NGN',
  chainSlot: 7,
  sourceType: 'payment',
  sourceId: '00000000-0000-4000-8000-000000000004',
  kind: 'success',
  account: 'wallet',
  bucket: 'available',
  entryType: 'credit',
  amount: '5000.50',
  reference: 'PAY_example',
  description: 'Payment received',
  createdAtMicros: '1735689600000000',
  prevHash: null,
};

describe('entryHash', () => {
  it('reproduces the documented example (the first entry of a chain: no previous hash)', () => {
    expect(entryHash(DOCUMENTED_EXAMPLE).toString('hex')).toBe('37e611ee9ee3bb5d6ed5c66c2b2c12efb1f16a4e012f82af7725f09c95cbda94');
  });

  it('cannot be fooled by moving text from one field into the next (netstring framing)', () => {
    const moved = { ...DOCUMENTED_EXAMPLE, reference: 'PAY_exampleP', description: 'ayment received' };
    expect(entryHash(moved).equals(entryHash(DOCUMENTED_EXAMPLE))).toBe(false);
  });

  it('frames each field as <UTF-8 byte length>:<text>, — the documented text, byte for byte', () => {
    expect(canonicalEntryText({ ...DOCUMENTED_EXAMPLE, reference: 'PAY_ü', prevHash: Buffer.alloc(32, 0xab) })).toBe(
      '23:gateway-ledger-entry-v1,36:00000000-0000-4000-8000-000000000001,36:00000000-0000-4000-8000-000000000002,' +
        '36:00000000-0000-4000-8000-000000000003,4:test,3:NGN,1:7,7:payment,36:00000000-0000-4000-8000-000000000004,7:success,' +
        `6:wallet,9:available,6:credit,7:5000.50,6:PAY_ü,16:Payment received,16:1735689600000000,64:${'ab'.repeat(32)},`,
    );
  });

  it('binds an entry to its place: another previous hash, chain or system-account line (no bucket) changes it', () => {
    const base = entryHash(DOCUMENTED_EXAMPLE);
    for (const variant of [
      { prevHash: Buffer.alloc(32) },
      { chainSlot: 8 },
      { bucket: null },
      { amount: '5000.5' },
      { createdAtMicros: '1735689600000001' },
    ]) {
      expect([variant, entryHash({ ...DOCUMENTED_EXAMPLE, ...variant }).equals(base)]).toEqual([variant, false]);
    }
  });
});
