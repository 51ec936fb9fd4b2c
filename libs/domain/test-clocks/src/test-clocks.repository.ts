import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type DeveloperContext, preparedStatement, runStatement } from '@gateway/platform';
import type { EntityManager, Repository } from 'typeorm';
import { TestClockEntity } from './test-clock.entity';

// Read on hot paths (a test-mode initialize with splits, a saved card or a charge_at): a prepared statement, not a TypeORM find.
const OFFSET = preparedStatement('test-clocks.offset', `SELECT offset_seconds FROM test_clocks WHERE developer_id = $1 AND mode = 'test'`);

/**
 * The tenant's time as a SQL expression, for another module's statement that stores a new object's
 * time without a round trip for the clock first (a plain checkout's insert): `real` (a timestamptz
 * expression) plus the developer's offset in test mode; `real` itself in live mode or when the
 * clock was never advanced. The arguments are SQL expressions (parameters such as `$1::uuid`), never values.
 */
export function tenantTimeSql(developer: string, mode: string, real: string): string {
  return `(${real} + CASE WHEN ${mode} = 'test'
      THEN coalesce((SELECT tc.offset_seconds FROM test_clocks tc WHERE tc.developer_id = ${developer} AND tc.mode = 'test'), 0) * interval '1 second'
      ELSE interval '0' END)`;
}

@Injectable()
export class TestClocksRepository {
  constructor(@InjectRepository(TestClockEntity) private readonly clocks: Repository<TestClockEntity>) {}

  /** The developer's offset in seconds; 0 when the clock was never advanced. */
  async offsetSeconds(ctx: DeveloperContext, manager: EntityManager = this.clocks.manager): Promise<number> {
    const { rows } = await runStatement<{ offset_seconds: string }>(manager, OFFSET, [ctx.developerId]);
    return rows[0] ? Number(rows[0].offset_seconds) : 0;
  }

  /**
   * Adds `seconds` to the offset in one statement (two concurrent advances both count), unless the
   * total would pass `maxSeconds`. Returns the new offset, or null when it would pass the limit.
   */
  async advance(ctx: DeveloperContext, seconds: number, maxSeconds: number, at: Date): Promise<number | null> {
    const rows: Array<{ offset_seconds: string }> = await this.clocks.query(
      `INSERT INTO test_clocks AS c (developer_id, mode, offset_seconds, updated_at)
       SELECT $1::uuid, 'test', $2::bigint, $4::timestamptz WHERE $2::bigint <= $3::bigint
       ON CONFLICT (developer_id, mode) DO UPDATE
         SET offset_seconds = c.offset_seconds + EXCLUDED.offset_seconds, updated_at = EXCLUDED.updated_at
         WHERE c.offset_seconds + EXCLUDED.offset_seconds <= $3::bigint
       RETURNING offset_seconds`,
      [ctx.developerId, seconds, maxSeconds, at],
    );
    return rows.length ? Number(rows[0].offset_seconds) : null;
  }

  async reset(ctx: DeveloperContext): Promise<void> {
    await this.clocks.delete({ developerId: ctx.developerId, mode: 'test' });
  }

  /** Every developer whose test clock runs ahead, with its offset. */
  async advanced(): Promise<Array<{ developerId: string; offsetSeconds: number }>> {
    const rows = await this.clocks.find({ order: { developerId: 'ASC' } });
    return rows.filter((r) => r.offsetSeconds > 0).map((r) => ({ developerId: r.developerId, offsetSeconds: r.offsetSeconds }));
  }
}
