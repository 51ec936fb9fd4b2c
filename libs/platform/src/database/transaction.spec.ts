import type { DataSource, EntityManager } from 'typeorm';
import { inOneStatement, inTransaction, TRANSACTION_ATTEMPTS } from './transaction';

/** A DataSource whose transactions fail with the given errors, in order, then run the work. */
function failingDataSource(errors: unknown[]): { dataSource: DataSource; runs: () => number } {
  let runs = 0;
  const dataSource = {
    transaction: async (work: (m: EntityManager) => Promise<unknown>) => {
      runs++;
      const error = errors.shift();
      if (error) throw error;
      return work({} as EntityManager);
    },
  } as unknown as DataSource;
  return { dataSource, runs: () => runs };
}

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });

describe('inTransaction', () => {
  it('runs a transaction aborted as a serialization failure or a deadlock victim again, until it commits', async () => {
    const { dataSource, runs } = failingDataSource([pgError('40001'), pgError('40P01'), pgError('40001')]);
    await expect(inTransaction(dataSource, async () => 'committed')).resolves.toBe('committed');
    expect(runs()).toBe(4);
  });

  it(`gives up after ${TRANSACTION_ATTEMPTS} attempts and throws the last failure`, async () => {
    const { dataSource, runs } = failingDataSource(Array.from({ length: TRANSACTION_ATTEMPTS + 1 }, () => pgError('40001')));
    await expect(inTransaction(dataSource, async () => 'committed')).rejects.toMatchObject({ code: '40001' });
    expect(runs()).toBe(TRANSACTION_ATTEMPTS);
  });

  it('never runs again a transaction that failed for another reason (a unique violation, a lost connection)', async () => {
    for (const error of [pgError('23505'), new Error('Connection terminated unexpectedly')]) {
      const { dataSource, runs } = failingDataSource([error]);
      await expect(inTransaction(dataSource, async () => 'committed')).rejects.toBe(error);
      expect(runs()).toBe(1);
    }
  });
});

describe('inOneStatement', () => {
  it('runs a statement aborted as a serialization failure or a deadlock victim again, and nothing else', async () => {
    const errors = [pgError('40P01'), pgError('40001'), pgError('23505')];
    let runs = 0;
    const statement = async () => {
      runs++;
      const error = errors.shift();
      if (error) throw error;
      return 'committed';
    };
    await expect(inOneStatement(statement)).rejects.toMatchObject({ code: '23505' });
    expect(runs).toBe(3);
    await expect(inOneStatement(statement)).resolves.toBe('committed');
  });
});
