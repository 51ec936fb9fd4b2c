import { Amount } from '@gateway/platform';
import { Client } from 'pg';
import { http } from '../../support/http';
import type { PaymentsHarness } from '../../support/payments';
import { BUCKETS, type Buckets, type Currency, formatMinor, type LedgerModel, type Mode } from './model';

const minor = (text: string | number): bigint => Amount.parse(String(text)).toMinor();

/**
 * Reads one developer's books straight from PostgreSQL and holds them against the model after
 * every operation:
 * - each wallet bucket (the sum of its 16 slots) equals the model's, to the cent;
 * - the sum of the wallet's entries per bucket equals the sum of its slots;
 * - each system account (Σ of its entries) equals the model's;
 * - every posting balances to zero and has lines; no slot and no bucket is below zero;
 * - the public view (`GET /wallet/balance`) of each wallet the operation touched shows the model's
 *   available, pending, reserved and total.
 * Entries are append-only (a trigger refuses UPDATE and DELETE), so their sums are kept running
 * from the new entries of each step (`seq` above the last one seen); `recount` adds them all up
 * again from scratch at the end of a run.
 */
export class Books {
  private readonly client: Client;
  private lastSeq = '0';
  /** Σ entries by `mode:currency:account:bucket` (bucket empty for system accounts). */
  private readonly entrySums = new Map<string, bigint>();
  private readonly postingsSeen = new Set<string>();

  constructor(
    private readonly h: PaymentsHarness,
    private readonly developerId: string,
  ) {
    this.client = new Client({ connectionString: h.databaseUrl });
  }

  async start(): Promise<void> {
    await this.client.connect();
  }

  async close(): Promise<void> {
    await this.client.end();
  }

  /** Every check above; `touched` are the wallets whose public view is read too. Throws describing every difference. */
  async check(model: LedgerModel, touched: ReadonlyArray<{ mode: Mode; currency: Currency }>, keyFor: (mode: Mode) => string): Promise<void> {
    const problems: string[] = [];
    const entries = await this.client.query<{ posting_id: string; mode: string; currency: string; account: string; bucket: string | null; amount: string; position: string }>(
      `SELECT posting_id, mode, currency, account, bucket, amount::text AS amount, seq::text AS position
         FROM ledger_entries WHERE developer_id = $1 AND seq > $2 ORDER BY seq`,
      [this.developerId, this.lastSeq],
    );
    const postingSums = new Map<string, bigint>();
    for (const e of entries.rows) {
      const key = `${e.mode}:${e.currency}:${e.account}:${e.bucket ?? ''}`;
      const amount = minor(e.amount);
      this.entrySums.set(key, (this.entrySums.get(key) ?? 0n) + amount);
      postingSums.set(e.posting_id, (postingSums.get(e.posting_id) ?? 0n) + amount);
      this.lastSeq = e.position;
    }
    for (const [posting, total] of postingSums) {
      if (this.postingsSeen.has(posting)) problems.push(`posting ${posting} gained lines after it was first seen`);
      this.postingsSeen.add(posting);
      if (total !== 0n) problems.push(`posting ${posting} sums to ${formatMinor(total)}, not 0`);
    }
    const [{ count }] = (await this.client.query<{ count: string }>(`SELECT count(*)::text AS count FROM ledger_postings WHERE developer_id = $1`, [this.developerId])).rows;
    if (Number(count) !== this.postingsSeen.size) problems.push(`${count} postings, ${this.postingsSeen.size} of them with lines`);

    const slots = await this.slotSums();
    problems.push(...this.compare(model, slots, this.entrySums));
    for (const { mode, currency } of touched) {
      const answer = await http(this.h.gateway.baseUrl, 'GET', `/api/v1/wallet/balance?currency=${currency}`, { token: keyFor(mode) });
      const data = answer.body?.data as { available_balance: number; pending_balance: number; reserved_balance: number; total_balance: number } | undefined;
      const wallet = model.wallets.get(`${mode}:${currency}`) ?? { available: 0n, pending: 0n, reserved: 0n };
      const expected = [wallet.available, wallet.pending, wallet.reserved, wallet.available + wallet.pending + wallet.reserved].map(formatMinor);
      const shown = data ? [data.available_balance, data.pending_balance, data.reserved_balance, data.total_balance].map((n) => formatMinor(minor(n))) : [`HTTP ${answer.status}`];
      if (shown.join(' ') !== expected.join(' ')) problems.push(`GET /wallet/balance ${mode} ${currency} shows ${shown.join('/')}, the model ${expected.join('/')} (available/pending/reserved/total)`);
    }
    if (problems.length) throw new Error(`the books differ from the model:\n  ${problems.join('\n  ')}`);
  }

  /** The end of a run: every sum again from all the developer's entries, not the running totals. */
  async recount(model: LedgerModel): Promise<void> {
    const all = await this.client.query<{ key: string; total: string }>(
      `SELECT mode || ':' || currency || ':' || account || ':' || coalesce(bucket, '') AS key, sum(amount)::text AS total
         FROM ledger_entries WHERE developer_id = $1 GROUP BY 1`,
      [this.developerId],
    );
    const sums = new Map(all.rows.map((r) => [r.key, minor(r.total)]));
    const problems = this.compare(model, await this.slotSums(), sums);
    const unbalanced = await this.client.query(
      `SELECT p.id FROM ledger_postings p LEFT JOIN ledger_entries e ON e.posting_id = p.id
        WHERE p.developer_id = $1 GROUP BY p.id HAVING count(e.id) = 0 OR sum(e.amount) <> 0`,
      [this.developerId],
    );
    if (unbalanced.rowCount) problems.push(`${unbalanced.rowCount} postings without lines or not summing to 0`);
    if (problems.length) throw new Error(`recounted at the end of the run, the books differ from the model:\n  ${problems.join('\n  ')}`);
  }

  private async slotSums(): Promise<Map<string, Buckets & { lowest: bigint }>> {
    const rows = await this.client.query<{ mode: string; currency: string; available: string; pending: string; reserved: string; lowest: string }>(
      `SELECT w.mode, w.currency, sum(s.available)::text AS available, sum(s.pending)::text AS pending, sum(s.reserved)::text AS reserved,
              min(least(s.available, s.pending, s.reserved))::text AS lowest
         FROM wallets w JOIN wallet_balance_slots s ON s.wallet_id = w.id
        WHERE w.developer_id = $1 GROUP BY w.mode, w.currency`,
      [this.developerId],
    );
    return new Map(
      rows.rows.map((r) => [`${r.mode}:${r.currency}`, { available: minor(r.available), pending: minor(r.pending), reserved: minor(r.reserved), lowest: minor(r.lowest) }]),
    );
  }

  private compare(model: LedgerModel, slots: Map<string, Buckets & { lowest: bigint }>, entrySums: Map<string, bigint>): string[] {
    const problems: string[] = [];
    const zero: Buckets = { available: 0n, pending: 0n, reserved: 0n };
    for (const wallet of new Set([...model.wallets.keys(), ...slots.keys()])) {
      const expected = model.wallets.get(wallet) ?? zero;
      const held = slots.get(wallet) ?? { ...zero, lowest: 0n };
      if (held.lowest < 0n) problems.push(`wallet ${wallet}: a slot is below zero (${formatMinor(held.lowest)})`);
      for (const bucket of BUCKETS) {
        const entries = entrySums.get(`${wallet}:wallet:${bucket}`) ?? 0n;
        if (expected[bucket] < 0n) problems.push(`wallet ${wallet} ${bucket}: the model itself went below zero (${formatMinor(expected[bucket])})`);
        if (held[bucket] !== expected[bucket]) problems.push(`wallet ${wallet} ${bucket}: slots hold ${formatMinor(held[bucket])}, the model ${formatMinor(expected[bucket])}`);
        if (entries !== held[bucket]) problems.push(`wallet ${wallet} ${bucket}: entries sum to ${formatMinor(entries)}, slots to ${formatMinor(held[bucket])}`);
      }
    }
    const systemKeys = [...entrySums.keys()].filter((k) => !k.includes(':wallet:')).map((k) => k.slice(0, -1));
    for (const account of new Set([...model.accounts.keys(), ...systemKeys])) {
      const expected = model.accounts.get(account) ?? 0n;
      const entries = entrySums.get(`${account}:`) ?? 0n;
      if (entries !== expected) problems.push(`account ${account}: entries sum to ${formatMinor(entries)}, the model ${formatMinor(expected)}`);
    }
    return problems;
  }
}
