import { Injectable } from '@nestjs/common';
import {
  Amount,
  CURRENCIES,
  type Currency,
  defineCursor,
  defineKeyset,
  type DeveloperContext,
  type Page,
  preparedStatement,
  runStatement,
} from '@gateway/platform';
import type { EntityManager } from 'typeorm';
import type { BucketDeltas, SlotBalance } from './posting-plan';
import type { Bucket, EntryType, LedgerEntryFilter, LedgerEntryView, Posting } from './ledger.types';

/** Wallet entries page by their sequence number, newest (highest) first. */
const walletEntryOrder = defineKeyset(defineCursor({ seq: 'bigint' }), { seq: 'seq' });

/**
 * Above every seq there will be: `seq <-> HIGHEST_SEQ` orders entries highest seq first. btree_gist
 * measures that distance as a float8, exact for integers up to 2^53 (not up to the bigint maximum,
 * where neighbouring seqs would tie); 2^53 entries is centuries of a million a second.
 */
const HIGHEST_SEQ = '9007199254740992';

/** Every wallet's balance is spread over this many rows (see docs/ledger.md). */
export const WALLET_SLOT_COUNT = 16;

/** The most entries `entriesForRequest` returns: a trace shows what one request did, not a statement. */
export const REQUEST_ENTRIES_LIMIT = 1000;

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

// Both posting statements share their parameters $1–$14 (below) and the CTEs that insert the
// posting and append its lines to a chain. Data-modifying CTEs run on one snapshot; each step needs
// the one before it (no wallet: no posting; no posting: no slot change and no entries), so a
// duplicate or a missing wallet writes nothing.
//   $1 developer_id  $2 mode  $3 currency  $4 source_type  $5 source_id  $6 kind  $7 created_at
//   $8 reference  $9–$13 the lines (account, bucket, entry_type, amount, description)  $14 request_id
const postingCte = (onDuplicate: string) => `posting AS (
    INSERT INTO ledger_postings (developer_id, mode, currency, source_type, source_id, kind, created_at, request_id)
    SELECT $1::uuid, $2::text, $3::text, $4::text, $5::text, $6::text, $7::timestamptz, $14::text FROM wallet
    ${onDuplicate} RETURNING id
  )`;
const POSTING_CTE = postingCte('ON CONFLICT ON CONSTRAINT ledger_postings_once_per_source DO NOTHING');

// The lines, hashed in line order onto the chain of the slot in `head` (slot, last_entry_hash),
// which the statement holds locked: ledger_chain_lines (migration ChainLedgerEntries) gives each
// line its entry id, the hash before it and its own hash (docs/ledger.md, "The hash chain"). The
// CTE is materialized: computed once, so the ids and hashes inserted are the ones chained.
const CHAIN_CTES = `chain AS MATERIALIZED (
    SELECT c.* FROM posting, head, ledger_chain_lines(head.last_entry_hash, posting.id, $1::uuid, $2::text, $3::text, head.slot,
      $4::text, $5::text, $6::text, $8::text, $7::timestamptz, $9::text[], $10::text[], $11::text[], $12::numeric[], $13::text[]) AS c
  ), chain_end AS (
    SELECT hash FROM chain ORDER BY n DESC LIMIT 1
  ), entries AS (
    INSERT INTO ledger_entries (id, posting_id, developer_id, mode, currency, account, bucket, entry_type, amount, reference, description, created_at, chain_slot, prev_hash, hash)
    SELECT c.id, posting.id, $1::uuid, $2::text, $3::text, c.account, c.bucket, c.entry_type, c.amount, $8::text, c.description, $7::timestamptz, head.slot, c.prev_hash, c.hash
    FROM chain c, posting, head
    ORDER BY c.n
    RETURNING 1
  )`;

// A posting that only adds to the wallet (or touches only system accounts), in ONE round trip:
// the slot is the first one no other transaction holds, from $15 round the ring (SKIP LOCKED);
// only when all are held does it wait for $15. The slot row is read by the locking clause itself,
// so its last_entry_hash is the latest committed one even when another credit committed after
// this statement's snapshot.
//   $15 start slot  $16 slot count  $17–$19 deltas (available, pending, reserved)
const CREDIT_CTES = `held AS (
    SELECT coalesce(
      (SELECT s FROM wallet_balance_slots s
        WHERE s.wallet_id = (SELECT id FROM wallet) AND EXISTS (SELECT 1 FROM posting)
        ORDER BY (s.slot - $15::int + $16::int) % $16::int LIMIT 1 FOR UPDATE SKIP LOCKED),
      (SELECT s FROM wallet_balance_slots s
        WHERE s.wallet_id = (SELECT id FROM wallet) AND EXISTS (SELECT 1 FROM posting) AND s.slot = $15::int FOR UPDATE)
    ) AS s
  ), head AS (
    SELECT (s).slot::int AS slot, (s).last_entry_hash FROM held WHERE (s).slot IS NOT NULL
  ), ${CHAIN_CTES}, credited AS (
    UPDATE wallet_balance_slots s
    SET available = s.available + $17::numeric, pending = s.pending + $18::numeric, reserved = s.reserved + $19::numeric,
        last_entry_hash = (SELECT hash FROM chain_end)
    FROM wallet, head WHERE s.wallet_id = wallet.id AND s.slot = head.slot RETURNING s.slot
  )`;
const WALLET_OF_POSTING = `SELECT id FROM wallets WHERE developer_id = $1::uuid AND mode = $2::text AND currency = $3::text`;
const POST_CREDIT_SQL = `WITH wallet AS (${WALLET_OF_POSTING}), ${POSTING_CTE}, ${CREDIT_CTES}
  SELECT (SELECT id FROM wallet) AS wallet_id, (SELECT id FROM posting) AS posting_id, (SELECT slot FROM credited) AS slot`;
// Every payment's credit runs it: prepared, so PostgreSQL parses and plans its CTEs once per connection.
const POST_CREDIT = preparedStatement('ledger.post-credit', POST_CREDIT_SQL);

/**
 * POST_CREDIT's steps as CTEs of a caller's one-statement state change (a payment's success; its
 * parameters $1–$19 from LedgerService.creditInStatement), in two parts. `wallet` defines
 * `ledger_wallet`, the wallet, and goes before the caller's change, which must require a row of it,
 * so that the change never commits without its credit. `credit` goes after it: the posting is
 * written only when the caller's CTE `gate` returned a row, and without ON CONFLICT (a duplicate
 * posting raises unique_violation, which aborts the caller's whole statement); `posting` holds
 * the new posting's id.
 */
export function creditCtes(gate: string): { wallet: string; credit: string } {
  return {
    wallet: `ledger_wallet AS (${WALLET_OF_POSTING})`,
    credit: `wallet AS (SELECT id FROM ledger_wallet WHERE EXISTS (SELECT 1 FROM ${gate})), ${postingCte('')}, ${CREDIT_CTES}`,
  };
}

// A posting that takes from the wallet, once the caller has locked all its slots (lockAllSlots):
// the posting, the slots' new balances and the entries, appended to the chain of slot $16 (one
// of the slots it changes), in one round trip.
//   $15 wallet id  $16 chain slot  $17 slots  $18–$20 their new available, pending, reserved
const POST_DEBIT_SQL = `WITH wallet AS (
    SELECT $15::uuid AS id
  ), ${POSTING_CTE}, head AS (
    SELECT s.slot::int AS slot, s.last_entry_hash FROM wallet_balance_slots s
    WHERE s.wallet_id = $15::uuid AND s.slot = $16::int AND EXISTS (SELECT 1 FROM posting)
  ), ${CHAIN_CTES}, debited AS (
    UPDATE wallet_balance_slots s
    SET available = v.available, pending = v.pending, reserved = v.reserved,
        last_entry_hash = CASE WHEN s.slot = head.slot THEN (SELECT hash FROM chain_end) ELSE s.last_entry_hash END
    FROM head, unnest($17::smallint[], $18::numeric[], $19::numeric[], $20::numeric[]) AS v (slot, available, pending, reserved)
    WHERE s.wallet_id = $15::uuid AND s.slot = v.slot RETURNING 1
  )
  SELECT (SELECT id FROM posting) AS posting_id`;

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

  /**
   * A posting that only adds to the wallet (or moves money between system accounts only), in ONE
   * round trip: finds the wallet, inserts the posting, adds `deltas` to a balance slot no other
   * transaction holds (trying slots from `startSlot` round the ring, SKIP LOCKED; only when all
   * are held it waits for `startSlot`) and appends the entries to that slot's hash chain. Writes
   * nothing when the wallet does not exist (walletId null) or the posting was already made
   * (postingId null).
   */
  async postCredit(
    manager: EntityManager,
    ctx: DeveloperContext,
    posting: Posting,
    deltas: BucketDeltas,
    startSlot: number,
    now: Date,
  ): Promise<{ walletId: string | null; postingId: string | null }> {
    const { rows } = await runStatement<{ wallet_id: string | null; posting_id: string | null }>(
      manager,
      POST_CREDIT,
      this.creditParameters(ctx, posting, deltas, startSlot, now),
    );
    return { walletId: rows[0]?.wallet_id ?? null, postingId: rows[0]?.posting_id ?? null };
  }

  /** The parameters of POST_CREDIT and of creditCtes. */
  creditParameters(ctx: DeveloperContext, posting: Posting, deltas: BucketDeltas, startSlot: number, now: Date): unknown[] {
    return [
      ...postingParams(ctx, posting, now),
      startSlot,
      WALLET_SLOT_COUNT,
      deltas.available.toString(),
      deltas.pending.toString(),
      deltas.reserved.toString(),
    ];
  }

  /** Locks every slot of the wallet, always in slot order, so two debits can never deadlock. */
  async lockAllSlots(manager: EntityManager, walletId: string): Promise<SlotBalance[]> {
    const rows: SlotRow[] = await manager.query(
      'SELECT slot, available, pending, reserved FROM wallet_balance_slots WHERE wallet_id = $1 ORDER BY slot FOR UPDATE',
      [walletId],
    );
    return rows.map((r) => ({ slot: r.slot, available: Amount.parse(r.available), pending: Amount.parse(r.pending), reserved: Amount.parse(r.reserved) }));
  }

  /**
   * A posting that takes from the wallet, once `lockAllSlots` holds every slot: inserts the
   * posting, writes the slots' new balances and appends the entries to the chain of `chainSlot`
   * (one of `slots`), in one round trip. The posting's id, or null (nothing written) when
   * (source, kind) was already posted.
   */
  async postDebit(
    manager: EntityManager,
    ctx: DeveloperContext,
    posting: Posting,
    walletId: string,
    slots: SlotBalance[],
    chainSlot: number,
    now: Date,
  ): Promise<string | null> {
    if (!slots.some((s) => s.slot === chainSlot)) throw new Error('a debit appends to the chain of a slot it changes');
    const rows: Array<{ posting_id: string | null }> = await manager.query(POST_DEBIT_SQL, [
      ...postingParams(ctx, posting, now),
      walletId,
      chainSlot,
      slots.map((s) => s.slot),
      ...(['available', 'pending', 'reserved'] as const).map((b) => slots.map((s) => s[b].toString())),
    ]);
    return rows[0]?.posting_id ?? null;
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

  /** The wallet entries of the postings made by one API request, in seq order (at most REQUEST_ENTRIES_LIMIT). */
  async walletEntriesOfRequest(manager: EntityManager, ctx: DeveloperContext, requestId: string): Promise<LedgerEntryView[]> {
    const rows: EntryRow[] = await manager.query(
      `SELECT e.id, e.seq, e.entry_type, e.amount, e.bucket, e.currency, e.reference, e.description, e.created_at
         FROM ledger_postings p JOIN ledger_entries e ON e.posting_id = p.id
        WHERE p.developer_id = $1 AND p.mode = $2 AND p.request_id = $3
          AND e.developer_id = $1 AND e.mode = $2 AND e.account = 'wallet'
        ORDER BY e.seq
        LIMIT $4`,
      [ctx.developerId, ctx.mode, requestId, REQUEST_ENTRIES_LIMIT],
    );
    return rows.map(toEntryView);
  }

  /**
   * The merchant's wallet lines, newest first, keyset-paginated on seq. Without a currency filter
   * each currency is read through its own index range and the results merged, so a page never
   * sorts the merchant's whole history. A time range is read through ledger_entries_wallet_type_time
   * instead (migrations IndexWalletEntriesByTime, IndexWalletLinesOnly): `seq` order is not
   * `created_at` order, so the range's entries (of the type, when one is asked) are asked highest
   * seq first of the index that holds both.
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
    if (filter.from || filter.to || filter.before) {
      if (filter.currency) conditions.push(`currency = ${param(filter.currency)}`);
      // The GiST index's nearest-first scan: distance from the highest seq there can be, so highest seq first.
      const rows: EntryRow[] = await manager.query(
        `SELECT ${columns} FROM ledger_entries WHERE ${conditions.join(' AND ')} ORDER BY seq <-> ${HIGHEST_SEQ}::bigint LIMIT ${keyset.limit}`,
        params,
      );
      return page.toPage(rows, toEntryView, (r) => ({ seq: BigInt(r.seq) }));
    }
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

/**
 * $1–$14 of both posting statements. The request id is the context's: the API request the posting
 * is made in, null for scheduler and queue work.
 */
function postingParams(ctx: DeveloperContext, posting: Posting, now: Date): unknown[] {
  const lines = posting.lines;
  return [
    ctx.developerId,
    ctx.mode,
    posting.currency,
    posting.sourceType,
    posting.sourceId,
    posting.kind,
    now,
    posting.reference,
    lines.map((l) => l.account),
    lines.map((l) => (l.account === 'wallet' ? (l.bucket ?? 'available') : null)),
    lines.map((l) => l.entryType),
    lines.map((l) => l.amount.toString()),
    lines.map((l) => l.description),
    ctx.requestId ?? null,
  ];
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
