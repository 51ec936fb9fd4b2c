import 'reflect-metadata';
import { Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LedgerModule, LedgerService } from '@gateway/domain/ledger';
import { Clock, dataSourceOptions, SystemClock } from '@gateway/platform';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { Client } from 'pg';

/**
 * Ledger verification: how long GET /api/v1/wallet/ledger/verify's walk (LedgerService.verifyChains)
 * takes over one wallet's history of BENCH_ENTRIES entries (default 100,000: 25,000 postings of
 * four lines, spread over the wallet's 16 chains), and how much the process's heap grows while it
 * runs (it must not grow with the history: the walk holds one page of 1,000 entries at a time).
 * The history is written by one PL/pgSQL loop hashing each entry with `ledger_entry_hash`, as the
 * posting statements do, on a database of its own.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:ledger-verify
 */
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 100_000);
const RUNS = 3;
/** Present under `node --expose-gc` (the npm script): heap figures after a collection. */
const gc = (globalThis as { gc?: () => void }).gc;

@Global()
@Module({ providers: [{ provide: Clock, useValue: new SystemClock() }], exports: [Clock] })
class ClockModule {}

async function main(): Promise<void> {
  const url = await createTestDatabase('bench_ledger_verify', process.env.DATABASE_URL);
  try {
    const developerId = await writeHistory(url, Math.ceil(ENTRIES / 4));
    @Module({ imports: [ClockModule, TypeOrmModule.forRoot({ ...dataSourceOptions(url, { size: 2 }) }), LedgerModule] })
    class BenchModule {}
    const app = await NestFactory.createApplicationContext(BenchModule, { logger: false });
    try {
      const ledger = app.get(LedgerService);
      const ctx = { developerId, mode: 'test' as const };
      const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
      for (let run = 1; run <= RUNS; run++) {
        gc?.();
        const heapBefore = process.memoryUsage().heapUsed;
        let heapPeak = heapBefore;
        const sampler = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 20);
        const started = process.hrtime.bigint();
        const result = await ledger.verifyChains(ctx, 'NGN');
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        clearInterval(sampler);
        if (!result.verified) throw new Error(`the bench history does not verify: ${JSON.stringify(result.firstBroken)}`);
        gc?.();
        console.log(
          `run ${run}: ${result.entriesChecked} entries in ${ms.toFixed(0)} ms (${Math.round(result.entriesChecked / (ms / 1000))} entries/s); ` +
            `heap: peak +${mib(heapPeak - heapBefore)} (garbage between collections), kept +${mib(process.memoryUsage().heapUsed - heapBefore)}`,
        );
      }
    } finally {
      await app.close();
    }
  } finally {
    await dropTestDatabase(url, process.env.DATABASE_URL);
  }
}

/** One merchant's NGN wallet with `postings` payments of four lines each, posting n on chain n mod 16. */
async function writeHistory(url: string, postings: number): Promise<string> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const started = Date.now();
    const [{ id }] = (await db.query(`INSERT INTO developers (email, name) VALUES ('bench-ledger@example.com', 'Bench') RETURNING id`)).rows;
    await db.query(
      `WITH w AS (INSERT INTO wallets (developer_id, mode, currency) VALUES ($1, 'test', 'NGN') RETURNING id)
       INSERT INTO wallet_balance_slots (wallet_id, slot) SELECT w.id, s FROM w, generate_series(0, 15) AS s`,
      [id],
    );
    await db.query(`CREATE FUNCTION pg_temp.bench_history(developer uuid, postings int) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        heads bytea[] := array_fill(NULL::bytea, ARRAY[16]);
        slot int; posting uuid; entry uuid; hash bytea; at timestamptz := now();
        line record;
      BEGIN
        FOR n IN 1..postings LOOP
          slot := n % 16;
          INSERT INTO ledger_postings (developer_id, mode, currency, source_type, source_id, kind, created_at)
          VALUES (developer, 'test', 'NGN', 'payment', 'bench-' || n, 'success', at) RETURNING id INTO posting;
          FOR line IN SELECT * FROM (VALUES
              (1, 'provider_clearing', NULL, 'credit', -1000.00, 'Payment received'), (2, 'wallet', 'available', 'credit', 1000.00, 'Payment received'),
              (3, 'wallet', 'available', 'fee', -10.00, 'Platform fee'), (4, 'platform_fees', NULL, 'fee', 10.00, 'Platform fee')
            ) AS l (n, account, bucket, entry_type, amount, description) ORDER BY n
          LOOP
            entry := gen_random_uuid();
            hash := ledger_entry_hash(entry, posting, developer, 'test', 'NGN', slot, 'payment', 'bench-' || n, 'success',
                                      line.account, line.bucket, line.entry_type, line.amount, 'PAY_bench_' || n, line.description, at, heads[slot + 1]);
            INSERT INTO ledger_entries (id, posting_id, developer_id, mode, currency, account, bucket, entry_type, amount, reference, description, created_at, chain_slot, prev_hash, hash)
            VALUES (entry, posting, developer, 'test', 'NGN', line.account, line.bucket, line.entry_type, line.amount, 'PAY_bench_' || n, line.description, at, slot, heads[slot + 1], hash);
            heads[slot + 1] := hash;
          END LOOP;
        END LOOP;
        UPDATE wallet_balance_slots s SET last_entry_hash = heads[s.slot + 1], available = CASE WHEN s.slot = 0 THEN 990.00 * postings ELSE 0 END
          FROM wallets w WHERE w.id = s.wallet_id AND w.developer_id = developer;
      END $$`);
    await db.query('SELECT pg_temp.bench_history($1, $2)', [id, postings]);
    await db.query('ANALYZE ledger_entries; ANALYZE ledger_postings');
    console.log(`history: ${postings * 4} entries written in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return id;
  } finally {
    await db.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
