import { dataSourceOptions, type DeveloperContext, ManualClock } from '@gateway/platform';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { LedgerChainRepository } from '../ledger-chain.repository';
import { LedgerRepository } from '../ledger.repository';
import { LedgerService } from '../ledger.service';

/**
 * A migrated database of a test file's own, with a LedgerService over it: for tests that take a
 * ledger migration down and up again, which locks the ledger's tables (or waits for every other
 * transaction on them) in a way no other test file may wait behind.
 */
export interface LedgerOfItsOwn {
  db: DataSource;
  ledger: LedgerService;
  /** A new developer account, test mode. */
  developer(): Promise<DeveloperContext>;
  /** One registered migration, to take down and bring up again on a connection of its own; release it after. */
  migration(name: string): { down(): Promise<void>; up(): Promise<void>; release(): Promise<void> };
  close(): Promise<void>;
}

export async function ledgerOfItsOwn(name: string, clock = new ManualClock(new Date())): Promise<LedgerOfItsOwn> {
  const url = await createTestDatabase(name);
  const db = await new DataSource(dataSourceOptions(url, { size: 4 })).initialize();
  return {
    db,
    ledger: new LedgerService(new LedgerRepository(), new LedgerChainRepository(), clock, db),
    async developer() {
      const [{ id }] = await db.query(`INSERT INTO developers (email, name) VALUES ($1, 'M') RETURNING id`, [`${name}-${randomUUID()}@example.com`]);
      return { developerId: id, mode: 'test' };
    },
    migration(name) {
      const migration = db.migrations.find((m) => m.name === name);
      if (!migration) throw new Error(`the migration ${name} is not registered`);
      const runner = db.createQueryRunner();
      return { down: () => migration.down(runner), up: () => migration.up(runner), release: () => runner.release() };
    },
    async close() {
      await db.destroy();
      await dropTestDatabase(url);
    },
  };
}
