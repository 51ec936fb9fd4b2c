import { hash } from 'node:crypto';

/** Names the serialization below; a future format would get a new tag, so old hashes still verify. */
export const ENTRY_HASH_FORMAT = 'gateway-ledger-entry-v1';

/**
 * The fields an entry's hash covers, each as text exactly as the database stores it (see
 * docs/ledger.md, "The hash chain", which an auditor can follow to recompute it independently).
 */
export interface HashedEntryFields {
  entryId: string;
  postingId: string;
  developerId: string;
  mode: string;
  currency: string;
  chainSlot: number;
  sourceType: string;
  sourceId: string;
  kind: string;
  account: string;
  /** null on system accounts' lines. */
  bucket: string | null;
  entryType: string;
  /** As numeric(20,2) prints it: `-75.25`, `100.00`. */
  amount: string;
  reference: string;
  description: string;
  /** created_at as whole microseconds since 1970-01-01T00:00:00Z, in decimal. */
  createdAtMicros: string;
  /** The previous entry's hash in this chain; null for a chain's first entry. */
  prevHash: Buffer | null;
}

/** A netstring: `<UTF-8 byte length>:<text>,`, so no field can run into the next. */
function netstring(value: string): string {
  return `${Buffer.byteLength(value, 'utf8')}:${value},`;
}

/** The bytes (as UTF-8 text) an entry's hash covers: the netstrings of the format tag and the fields, in this order. */
export function canonicalEntryText(f: HashedEntryFields): string {
  return [
    ENTRY_HASH_FORMAT,
    f.entryId,
    f.postingId,
    f.developerId,
    f.mode,
    f.currency,
    String(f.chainSlot),
    f.sourceType,
    f.sourceId,
    f.kind,
    f.account,
    f.bucket ?? '',
    f.entryType,
    f.amount,
    f.reference,
    f.description,
    f.createdAtMicros,
    f.prevHash ? f.prevHash.toString('hex') : '',
  ]
    .map(netstring)
    .join('');
}

/**
 * SHA-256 of the canonical text. The SQL function `ledger_entry_hash` (migration
 * ChainLedgerEntries) computes the same bytes when an entry is written; this is the verifier's
 * independent implementation.
 */
export function entryHash(f: HashedEntryFields): Buffer {
  // One-shot hashing: a verification hashes every entry of a wallet, and this skips a Hash object per entry.
  return hash('sha256', canonicalEntryText(f), 'buffer');
}
