import type { DataSource, EntityManager } from 'typeorm';

/**
 * Runs `work` in one database transaction: a state change, its ledger entries and its events
 * commit together or not at all.
 */
export function inTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  return dataSource.transaction('READ COMMITTED', work);
}
