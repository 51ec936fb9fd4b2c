import { Column, Entity, PrimaryColumn } from 'typeorm';

/** How far one developer's test mode runs ahead of real time. Live mode never has a row. */
@Entity('test_clocks')
export class TestClockEntity {
  @PrimaryColumn('uuid', { name: 'developer_id' })
  developerId!: string;

  /** Always `test`: the column keeps the tenant key every tenant table has. */
  @PrimaryColumn('text')
  mode!: 'test';

  /** Whole seconds ahead of real time, never negative (a clock only advances, or is reset to 0). */
  @Column('bigint', { name: 'offset_seconds', transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  offsetSeconds!: number;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt!: Date;
}
