import { Injectable } from '@nestjs/common';
import type { Currency, DeveloperContext } from '@gateway/platform';
import type { EntityManager } from 'typeorm';
import type { ChainEntryRow } from './chain-walk';

interface ChainEntryRecord {
  id: string;
  seq: string;
  posting_id: string;
  chain_slot: number;
  source_type: string;
  source_id: string;
  kind: string;
  account: string;
  bucket: string | null;
  entry_type: string;
  amount: string;
  reference: string;
  description: string;
  created_at_micros: string;
  prev_hash: Buffer | null;
  hash: Buffer;
}

/** The reads that verify a wallet's hash chains (docs/ledger.md, "The hash chain"). */
@Injectable()
export class LedgerChainRepository {
  /** Each chain's recorded last hash, by slot; null when the wallet does not exist. */
  async chainHeads(manager: EntityManager, ctx: DeveloperContext, currency: Currency): Promise<Map<number, Buffer | null> | null> {
    const rows: Array<{ slot: number | null; last_entry_hash: Buffer | null }> = await manager.query(
      `SELECT s.slot, s.last_entry_hash FROM wallets w LEFT JOIN wallet_balance_slots s ON s.wallet_id = w.id
        WHERE w.developer_id = $1 AND w.mode = $2 AND w.currency = $3`,
      [ctx.developerId, ctx.mode, currency],
    );
    if (rows.length === 0) return null;
    return new Map(rows.filter((r) => r.slot !== null).map((r) => [r.slot as number, r.last_entry_hash]));
  }

  /**
   * The next `limit` entries of the wallet after `after`, in (chain, seq) order — a keyset walk
   * over the ledger_entries_chain index, so each page costs the same however far the walk is.
   * The amount and the time come as the hash covers them: numeric(20,2) text, epoch microseconds.
   */
  async chainPage(
    manager: EntityManager,
    ctx: DeveloperContext,
    currency: Currency,
    after: { chainSlot: number; seq: string } | null,
    limit: number,
  ): Promise<ChainEntryRow[]> {
    const rows: ChainEntryRecord[] = await manager.query(
      `SELECT e.id, e.seq::text AS seq, e.posting_id, e.chain_slot, p.source_type, p.source_id, p.kind, e.account, e.bucket, e.entry_type,
              e.amount::text AS amount, e.reference, e.description, (extract(epoch FROM e.created_at) * 1000000)::bigint::text AS created_at_micros,
              e.prev_hash, e.hash
         FROM ledger_entries e JOIN ledger_postings p ON p.id = e.posting_id
        WHERE e.developer_id = $1 AND e.mode = $2 AND e.currency = $3 AND (e.chain_slot, e.seq) > ($4::smallint, $5::bigint)
        ORDER BY e.chain_slot, e.seq
        LIMIT $6`,
      [ctx.developerId, ctx.mode, currency, after?.chainSlot ?? -1, after?.seq ?? '0', limit],
    );
    return rows.map((r) => ({
      entryId: r.id,
      seq: r.seq,
      postingId: r.posting_id,
      developerId: ctx.developerId,
      mode: ctx.mode,
      currency,
      chainSlot: r.chain_slot,
      sourceType: r.source_type,
      sourceId: r.source_id,
      kind: r.kind,
      account: r.account,
      bucket: r.bucket,
      entryType: r.entry_type,
      amount: r.amount,
      reference: r.reference,
      description: r.description,
      createdAtMicros: r.created_at_micros,
      prevHash: r.prev_hash,
      hash: r.hash,
    }));
  }
}
