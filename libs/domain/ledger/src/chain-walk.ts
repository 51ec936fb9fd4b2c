import type { Currency } from '@gateway/platform';
import { entryHash, type HashedEntryFields } from './entry-hash';
import type { ChainBreak, ChainBreakReason } from './ledger.types';

/** One stored entry as the verifier reads it: the fields its hash covers, its position and its stored hash. */
export interface ChainEntryRow extends HashedEntryFields {
  seq: string;
  hash: Buffer;
}

interface ChainEnd {
  hash: Buffer;
  entryId: string;
  reference: string;
}

/**
 * Checks one wallet's chains (the entries of one developer, mode and currency), entry by entry, in
 * (chain, seq) order, keeping only the last entry seen: memory stays constant however long the
 * history. Each entry must reproduce its stored hash and name the previous entry's hash as its
 * `prev_hash`; each chain must end at the hash its balance slot recorded (`heads`; a chain
 * without entries, at none).
 */
export class WalletChainWalk {
  private chain = -1;
  private last: ChainEnd | null = null;
  private checked = 0;

  constructor(
    private readonly currency: Currency,
    private readonly heads: ReadonlyMap<number, Buffer | null>,
    private readonly chainCount: number,
  ) {}

  get entriesChecked(): number {
    return this.checked;
  }

  /** The next entry, in (chain, seq) order. Returns the break it reveals, if any. */
  visit(row: ChainEntryRow): ChainBreak | null {
    if (row.chainSlot !== this.chain) {
      const unfinished = this.closeChainsBefore(row.chainSlot);
      if (unfinished) return unfinished;
      this.chain = row.chainSlot;
      this.last = null;
    }
    if (!entryHash(row).equals(row.hash)) return this.broken('hash_mismatch', row.chainSlot, row);
    if (!sameHash(row.prevHash, this.last?.hash ?? null)) return this.broken('prev_hash_mismatch', row.chainSlot, row);
    this.last = { hash: row.hash, entryId: row.entryId, reference: row.reference };
    this.checked++;
    return null;
  }

  /** After the last entry: every chain not yet closed must end where its slot says. */
  finish(): ChainBreak | null {
    return this.closeChainsBefore(this.chainCount);
  }

  /** Closes the chain being walked and every empty chain before `next`. */
  private closeChainsBefore(next: number): ChainBreak | null {
    for (let chain = Math.max(this.chain, 0); chain < next; chain++) {
      const end = chain === this.chain ? this.last : null;
      if (!sameHash(this.heads.get(chain) ?? null, end?.hash ?? null)) return this.broken('chain_head_mismatch', chain, end);
    }
    this.chain = next;
    this.last = null;
    return null;
  }

  private broken(reason: ChainBreakReason, chain: number, at: { entryId: string; reference: string } | null): ChainBreak {
    return { currency: this.currency, chain, reason, entryId: at?.entryId ?? null, reference: at?.reference ?? null };
  }
}

function sameHash(a: Buffer | null, b: Buffer | null): boolean {
  return a === null || b === null ? a === b : a.equals(b);
}
