import { Injectable } from '@nestjs/common';
import { Amount, CURRENCIES, type Currency, defineCursor, defineKeyset, type DeveloperContext, type Page } from '@gateway/platform';
import type { EntityManager } from 'typeorm';
import type { BucketDeltas, SlotBalance } from './posting-plan';
import type { Bucket, EntryType, LedgerEntryFilter, LedgerEntryView, Posting } from './ledger.types';

/** Wallet entries page by their sequence number, newest (highest) first. */
const walletEntryOrder = defineKeyset(defineCursor({ seq: 'bigint' }), { seq: 'seq' });

/** Every wallet's balance is spread over this many rows (see docs/ledger.md). */
export const WALLET_SLOT_COUNT = 16;

interface SlotRow {
  slot: number;
  available: string;
  pending: string;
  reserved: string;
}

interface EntryRow {
  id: string;
  seq: string;
  entry_type: EntryType;
  amount: string;
  bucket: Bucket;
  currency: Currency;
  reference: string;
  description: string;
  created_at: Date;
}

// Data-modifying CTEs run on one snapshot; each step needs the one before it (no wallet: no
// posting; no posting: no slot change and no entries), so a duplicate or a missing wallet writes nothing.
const POST_CREDIT_SQL = `WITH wallet AS (
    SELECT id FROM wallets WHERE developer_id = $1 AND mode = $2 AND currency = $3
  ), posting AS (
    INSERT INTO ledger_postings (developer_id, mode, currency, source_type, source_id, kind, created_at)
    SELECT $1, $2, $3, $4, $5, $6, $7 FROM wallet
    ON CONFLICT ON CONSTRAINT ledger_postings_once_per_source DO NOTHING RETURNING id
  ), free AS (
    SELECT coalesce((
      SELECT s.slot FROM wallet_balance_slots s
      WHERE s.wallet_id = (SELECT id FROM wallet) AND EXISTS (SELECT 1 FROM posting)
      ORDER BY (s.slot - $8::int + $9::int) % $9::int LIMIT 1 FOR UPDATE SKIP LOCKED
    ), $8::int) AS slot
  ), credited AS (
    UPDATE wallet_balance_slots s SET available = s.available + $10::numeric, pending = s.pending + $11::numeric, reserved = s.reserved + $12::numeric
    FROM posting, wallet, free WHERE s.wallet_id = wallet.id AND s.slot = free.slot RETURNING s.slot
  ), entries AS (
    INSERT INTO ledger_entries (posting_id, developer_id, mode, currency, account, bucket, entry_type, amount, reference, description, created_at)
    SELECT posting.id, $1, $2, $3, l.account, l.bucket, l.entry_type, l.amount, $13, l.description, $7
    FROM posting, unnest($14::text[], $15::text[], $16::text[], $17::numeric[], $18::text[]) WITH ORDINALITY AS l (account, bucket, entry_type, amount, description, n)
    ORDER BY l.n
    RETURNING 1
  )
  SELECT (SELECT id FROM wallet) AS wallet_id, (SELECT id FROM posting) AS posting_id, (SELECT slot FROM credited) AS slot`;

/** The ledger's SQL. Every method runs on the manager it is given (usually the caller's transaction). */
@Injectable()
export class LedgerRepository {
  async findWalletId(manager: EntityManager, ctx: DeveloperContext, currency: Currency): Promise<string | null> {
    const rows: Array<{ id: string }> = await manager.query(
      'SELECT id FROM wallets WHERE developer_id = $1 AND mode = $2 AND currency = $3',
      [ctx.developerId, ctx.mode, currency],
    );
    return rows[0]?.id ?? null;
  }

  /** Creates the wallet with its slots on first use; concurrent creators converge on one wallet. */
  async ensureWallet(manager: EntityManager, ctx: DeveloperContext, currency: Currency, now: Date): Promise<string> {
    const existing = await this.findWalletId(manager, ctx, currency);
    if (existing) return existing;
    const created: Array<{ wallet_id: string }> = await manager.query(
      `WITH wallet AS (
         INSERT INTO wallets (developer_id, mode, currency, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (developer_id, mode, currency) DO NOTHING RETURNING id
       )
       INSERT INTO wallet_balance_slots (wallet_id, slot)
       SELECT wallet.id, slot FROM wallet, generate_series(0, $5::int - 1) AS slot
       RETURNING wallet_id`,
      [ctx.developerId, ctx.mode, currency, now, WALLET_SLOT_COUNT],
    );
    if (created[0]) return created[0].wallet_id;
    // Another transaction created it (ON CONFLICT waited for it to commit): read the winner's row.
    const winner = await this.findWalletId(manager, ctx, currency);
    if (!winner) throw new Error('wallet vanished while being created');
    return winner;
  }

  async postingExists(manager: EntityManager, ctx: DeveloperContext, posting: Posting): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      'SELECT 1 FROM ledger_postings WHERE developer_id = $1 AND mode = $2 AND source_type = $3 AND source_id = $4 AND kind = $5',
      [ctx.developerId, ctx.mode, posting.sourceType, posting.sourceId, posting.kind],
    );
    return rows.length > 0;
  }

  /** The new posting's id, or null when (source, kind) was already posted. */
  async insertPosting(manager: EntityManager, ctx: DeveloperContext, posting: Posting, now: Date): Promise<string | null> {
    const rows: Array<{ id: string }> = await manager.query(
      `INSERT INTO ledger_postings (developer_id, mode, currency, source_type, source_id, kind, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT ON CONSTRAINT ledger_postings_once_per_source DO NOTHING RETURNING id`,
      [ctx.developerId, ctx.mode, posting.currency, posting.sourceType, posting.sourceId, posting.kind, now],
    );
    return rows[0]?.id ?? null;
  }

  /**
   * A posting that only adds to the wallet, in ONE round trip: finds the wallet, inserts the
   * posting, adds `deltas` to a balance slot no other transaction holds (trying slots from
   * `startSlot` round the ring, SKIP LOCKED; only when all are held it waits for `startSlot`) and
   * inserts the entries. Writes nothing when the wallet does not exist (walletId null) or the
   * posting was already made (postingId null).
   */
  async postCredit(
    manager: EntityManager,
    ctx: DeveloperContext,
    posting: Posting,
    deltas: BucketDeltas,
    startSlot: number,
    now: Date,
  ): Promise<{ walletId: string | null; postingId: string | null }> {
    const lines = posting.lines;
    const rows: Array<{ wallet_id: string | null; posting_id: string | null }> = await manager.query(POST_CREDIT_SQL, [
      ctx.developerId,
      ctx.mode,
      posting.currency,
      posting.sourceType,
      posting.sourceId,
      posting.kind,
      now,
      startSlot,
      WALLET_SLOT_COUNT,
      deltas.available.toString(),
      deltas.pending.toString(),
      deltas.reserved.toString(),
      posting.reference,
      lines.map((l) => l.account),
      lines.map((l) => (l.account === 'wallet' ? (l.bucket ?? 'available') : null)),
      lines.map((l) => l.entryType),
      lines.map((l) => l.amount.toString()),
      lines.map((l) => l.description),
    ]);
    return { walletId: rows[0]?.wallet_id ?? null, postingId: rows[0]?.posting_id ?? null };
  }

  /** Locks every slot of the wallet, always in slot order, so two debits can never deadlock. */
  async lockAllSlots(manager: EntityManager, walletId: string): Promise<SlotBalance[]> {
    const rows: SlotRow[] = await manager.query(
      'SELECT slot, available, pending, reserved FROM wallet_balance_slots WHERE wallet_id = $1 ORDER BY slot FOR UPDATE',
      [walletId],
    );
    return rows.map((r) => ({ slot: r.slot, available: Amount.parse(r.available), pending: Amount.parse(r.pending), reserved: Amount.parse(r.reserved) }));
  }

  async writeSlots(manager: EntityManager, walletId: string, slots: SlotBalance[]): Promise<void> {
    if (slots.length === 0) return;
    await manager.query(
      `UPDATE wallet_balance_slots s SET available = v.available, pending = v.pending, reserved = v.reserved
       FROM unnest($2::smallint[], $3::numeric[], $4::numeric[], $5::numeric[]) AS v (slot, available, pending, reserved)
       WHERE s.wallet_id = $1 AND s.slot = v.slot`,
      [walletId, slots.map((s) => s.slot), ...(['available', 'pending', 'reserved'] as const).map((b) => slots.map((s) => s[b].toString()))],
    );
  }

  async insertEntries(manager: EntityManager, ctx: DeveloperContext, postingId: string, posting: Posting, now: Date): Promise<void> {
    const lines = posting.lines;
    await manager.query(
      `INSERT INTO ledger_entries (posting_id, developer_id, mode, currency, account, bucket, entry_type, amount, reference, description, created_at)
       SELECT $1, $2, $3, $4, l.account, l.bucket, l.entry_type, l.amount, $5, l.description, $6
       FROM unnest($7::text[], $8::text[], $9::text[], $10::numeric[], $11::text[]) WITH ORDINALITY AS l (account, bucket, entry_type, amount, description, n)
       ORDER BY l.n`,
      [
        postingId,
        ctx.developerId,
        ctx.mode,
        posting.currency,
        posting.reference,
        now,
        lines.map((l) => l.account),
        lines.map((l) => (l.account === 'wallet' ? (l.bucket ?? 'available') : null)),
        lines.map((l) => l.entryType),
        lines.map((l) => l.amount.toString()),
        lines.map((l) => l.description),
      ],
    );
  }

  async sumSlots(manager: EntityManager, ctx: DeveloperContext, currency: Currency): Promise<Record<Bucket, Amount>> {
    const rows: Array<Record<Bucket, string | null>> = await manager.query(
      `SELECT sum(s.available) AS available, sum(s.pending) AS pending, sum(s.reserved) AS reserved
       FROM wallets w JOIN wallet_balance_slots s ON s.wallet_id = w.id
       WHERE w.developer_id = $1 AND w.mode = $2 AND w.currency = $3`,
      [ctx.developerId, ctx.mode, currency],
    );
    const row = rows[0];
    const read = (value: string | null | undefined) => (value === null || value === undefined ? Amount.zero() : Amount.parse(value));
    return { available: read(row?.available), pending: read(row?.pending), reserved: read(row?.reserved) };
  }

  /**
   * The merchant's wallet lines, newest first, keyset-paginated on seq. Without a currency filter
   * each currency is read through its own index range and the results merged, so a page never
   * sorts the merchant's whole history.
   * @throws validation_error for a cursor this list did not issue
   */
  async listWalletEntries(manager: EntityManager, ctx: DeveloperContext, filter: LedgerEntryFilter): Promise<Page<LedgerEntryView>> {
    const page = walletEntryOrder.page(filter);
    const params: unknown[] = [ctx.developerId, ctx.mode];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const keyset = page.sql(param);
    const conditions = ['developer_id = $1', 'mode = $2', `account = 'wallet'`];
    if (keyset.where) conditions.push(keyset.where);
    if (filter.type) conditions.push(`entry_type = ${param(filter.type)}`);
    if (filter.reference) conditions.push(`reference = ${param(filter.reference)}`);
    if (filter.from) conditions.push(`created_at >= ${param(filter.from)}`);
    if (filter.to) conditions.push(`created_at <= ${param(filter.to)}`);
    if (filter.before) conditions.push(`created_at < ${param(filter.before)}`);
    const columns = 'id, seq, entry_type, amount, bucket, currency, reference, description, created_at';
    const currencies = filter.currency ? [filter.currency] : CURRENCIES;
    const perCurrency = currencies.map(
      (currency) => `(SELECT ${columns} FROM ledger_entries WHERE ${[...conditions, `currency = ${param(currency)}`].join(' AND ')} ORDER BY ${keyset.orderBy} LIMIT ${keyset.limit})`,
    );
    const rows: EntryRow[] = await manager.query(`SELECT * FROM (${perCurrency.join(' UNION ALL ')}) AS page ORDER BY ${keyset.orderBy} LIMIT ${keyset.limit}`, params);
    return page.toPage(rows, toEntryView, (r) => ({ seq: BigInt(r.seq) }));
  }
}

/** How many wallet entries the list shows for an export's range (rows_total). */
export async function countWalletEntries(manager: EntityManager, ctx: DeveloperContext, range: { from: Date; to: Date; currency?: Currency }): Promise<number> {
  const rows: Array<{ count: number }> = await manager.query(
    `SELECT count(*)::int AS count FROM ledger_entries
      WHERE developer_id = $1 AND mode = $2 AND account = 'wallet' AND created_at >= $3 AND created_at < $4 AND ($5::text IS NULL OR currency = $5)`,
    [ctx.developerId, ctx.mode, range.from, range.to, range.currency ?? null],
  );
  return rows[0]?.count ?? 0;
}

function toEntryView(r: EntryRow): LedgerEntryView {
  return {
    id: r.id,
    entryType: r.entry_type,
    amount: Amount.parse(r.amount),
    bucket: r.bucket,
    currency: r.currency,
    reference: r.reference,
    description: r.description,
    createdAt: r.created_at,
  };
}
