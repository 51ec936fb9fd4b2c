import { Amount, isCurrency } from '@gateway/platform';
import { LedgerUnbalancedError } from './ledger.errors';
import { BUCKETS, type Bucket, ENTRY_TYPES, type Posting, type PostingLine } from './ledger.types';

/** The net change a posting makes to each bucket of the merchant's wallet. */
export type BucketDeltas = Record<Bucket, Amount>;

export interface SlotBalance {
  slot: number;
  available: Amount;
  pending: Amount;
  reserved: Amount;
}

const ACCOUNT_FORMAT = /^[a-z_]+(:[A-Za-z0-9_.-]+)?$/;

/**
 * Refuses a malformed or unbalanced posting before anything is written.
 * @throws LedgerUnbalancedError
 */
export function checkPosting(posting: Posting): void {
  if (!isCurrency(posting.currency)) throw new LedgerUnbalancedError(`unsupported currency ${String(posting.currency)}`);
  for (const field of ['sourceType', 'sourceId', 'kind', 'reference'] as const) {
    if (!posting[field]) throw new LedgerUnbalancedError(`posting ${field} is required`);
  }
  if (posting.lines.length < 2) throw new LedgerUnbalancedError('a posting needs at least two lines');
  posting.lines.forEach(checkLine);
  const sum = Amount.sum(posting.lines.map((l) => l.amount));
  if (!sum.isZero()) throw new LedgerUnbalancedError(`posting ${posting.sourceType}/${posting.kind} lines sum to ${sum}, not 0.00`);
}

function checkLine(line: PostingLine, index: number): void {
  if (!(line.amount instanceof Amount)) throw new LedgerUnbalancedError(`line ${index}: amount must be an Amount`);
  if (line.amount.isZero()) throw new LedgerUnbalancedError(`line ${index}: amount must not be zero`);
  if (!ACCOUNT_FORMAT.test(line.account)) throw new LedgerUnbalancedError(`line ${index}: malformed account ${line.account}`);
  if (!ENTRY_TYPES.includes(line.entryType)) throw new LedgerUnbalancedError(`line ${index}: unknown entry type ${line.entryType}`);
  if (line.account !== 'wallet' && line.bucket) throw new LedgerUnbalancedError(`line ${index}: only wallet lines have a bucket`);
  if (line.bucket && !BUCKETS.includes(line.bucket)) throw new LedgerUnbalancedError(`line ${index}: unknown bucket ${line.bucket}`);
  if (!line.description) throw new LedgerUnbalancedError(`line ${index}: description is required`);
}

export function walletDeltas(lines: PostingLine[]): BucketDeltas {
  const deltas: BucketDeltas = { available: Amount.zero(), pending: Amount.zero(), reserved: Amount.zero() };
  for (const line of lines) {
    if (line.account !== 'wallet') continue;
    const bucket = line.bucket ?? 'available';
    deltas[bucket] = deltas[bucket].plus(line.amount);
  }
  return deltas;
}

/** True when no bucket loses money: such a posting cannot overdraw and needs no lock on the others. */
export function onlyAddsToWallet(deltas: BucketDeltas): boolean {
  return BUCKETS.every((bucket) => !deltas[bucket].isNegative());
}

/**
 * New values for the slots a posting changes, given every slot of the wallet (locked by the
 * caller). Money taken out of a bucket comes from the fullest slots first, never below zero;
 * money added goes to the first slot. Returns the first bucket that cannot cover its share.
 */
export function planSlotChanges(slots: SlotBalance[], deltas: BucketDeltas): { changed: SlotBalance[] } | { shortfall: Bucket } {
  if (slots.length === 0) throw new Error('a wallet always has slots');
  const next = new Map(slots.map((s) => [s.slot, { ...s }]));
  const changed = new Set<number>();
  for (const bucket of BUCKETS) {
    const delta = deltas[bucket];
    if (delta.isZero()) continue;
    if (delta.isPositive()) {
      const first = next.get(slots[0].slot) as SlotBalance;
      first[bucket] = first[bucket].plus(delta);
      changed.add(first.slot);
      continue;
    }
    let need = delta.negate();
    const fullestFirst = [...next.values()].sort((a, b) => b[bucket].compare(a[bucket]) || a.slot - b.slot);
    for (const slot of fullestFirst) {
      if (need.isZero() || !slot[bucket].isPositive()) break;
      const take = Amount.min(slot[bucket], need);
      slot[bucket] = slot[bucket].minus(take);
      need = need.minus(take);
      changed.add(slot.slot);
    }
    if (!need.isZero()) return { shortfall: bucket };
  }
  return { changed: [...changed].sort((a, b) => a - b).map((slot) => next.get(slot) as SlotBalance) };
}
