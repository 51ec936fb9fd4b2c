import { type ChainEntryRow, WalletChainWalk } from './chain-walk';
import { entryHash } from './entry-hash';

const wallet = { developerId: '00000000-0000-4000-8000-000000000003', mode: 'test', currency: 'NGN' } as const;

/** A correctly chained run of `count` entries on `chain`, each hashed onto the one before. */
function chainOf(chain: number, count: number): ChainEntryRow[] {
  const rows: ChainEntryRow[] = [];
  for (let i = 0; i < count; i++) {
    const fields = {
      ...wallet,
      entryId: `00000000-0000-4000-8000-${String(chain * 100 + i).padStart(12, '0')}`,
      postingId: '00000000-0000-4000-8000-000000000002',
      chainSlot: chain,
      sourceType: 'payment',
      sourceId: `src-${chain}-${i}`,
      kind: 'success',
      account: 'wallet',
      bucket: 'available',
      entryType: 'credit',
      amount: `${i + 1}.00`,
      reference: `PAY_${chain}_${i}`,
      description: 'Payment received',
      createdAtMicros: '1735689600000000',
      prevHash: rows[i - 1]?.hash ?? null,
    };
    rows.push({ ...fields, seq: String(chain * 100 + i), hash: entryHash(fields) });
  }
  return rows;
}

function walk(rows: ChainEntryRow[], heads: Map<number, Buffer | null>) {
  const w = new WalletChainWalk('NGN', heads, 16);
  for (const row of rows) {
    const broken = w.visit(row);
    if (broken) return { broken, checked: w.entriesChecked };
  }
  return { broken: w.finish(), checked: w.entriesChecked };
}

const headsOf = (...chains: ChainEntryRow[][]) => new Map(chains.map((c) => [c[0].chainSlot, c[c.length - 1].hash]));

describe('WalletChainWalk', () => {
  it('accepts chains that skip slots, and a wallet with no entries and no heads', () => {
    const three = chainOf(3, 4);
    const nine = chainOf(9, 2);
    expect(walk([...three, ...nine], headsOf(three, nine))).toEqual({ broken: null, checked: 6 });
    expect(walk([], new Map())).toEqual({ broken: null, checked: 0 });
  });

  it('reports an empty chain whose slot names a last entry, before any later chain', () => {
    const nine = chainOf(9, 2);
    const heads = headsOf(nine).set(5, Buffer.alloc(32, 1));
    expect(walk(nine, heads).broken).toEqual({ currency: 'NGN', chain: 5, reason: 'chain_head_mismatch', entryId: null, reference: null });
  });

  it('reports entries on a chain whose slot names none (a wallet without slots, or a forged chain)', () => {
    const two = chainOf(2, 2);
    expect(walk(two, new Map()).broken).toEqual({ currency: 'NGN', chain: 2, reason: 'chain_head_mismatch', entryId: two[1].entryId, reference: two[1].reference });
  });

  it('reports the first break only, counting the entries before it', () => {
    const one = chainOf(1, 5);
    const edited = one.map((r, i) => (i === 2 ? { ...r, amount: '99.00' } : r));
    expect(walk(edited, headsOf(one))).toEqual({ broken: expect.objectContaining({ reason: 'hash_mismatch', entryId: one[2].entryId }), checked: 2 });
    const gap = one.filter((_, i) => i !== 1);
    expect(walk(gap, headsOf(one))).toEqual({ broken: expect.objectContaining({ reason: 'prev_hash_mismatch', entryId: one[2].entryId }), checked: 1 });
  });

  it('does not let one chain continue another: the first entry of each chain has no previous hash', () => {
    const zero = chainOf(0, 2);
    const grafted = chainOf(1, 1).map((r) => ({ ...r, prevHash: zero[1].hash }));
    grafted[0].hash = entryHash(grafted[0]);
    expect(walk([...zero, ...grafted], headsOf(zero, grafted)).broken).toMatchObject({ reason: 'prev_hash_mismatch', chain: 1 });
  });
});
