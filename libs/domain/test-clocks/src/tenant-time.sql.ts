/**
 * The tenant's time as a SQL expression, for another module's statement that stores a new object's
 * time without a round trip for the clock first: `real` (a timestamptz expression) plus the
 * developer's test-clock offset in test mode; `real` itself in live mode or when the clock was never
 * advanced. The arguments are SQL expressions (parameters such as `$1::uuid`), never values.
 */
export function tenantTimeSql(developer: string, mode: string, real: string): string {
  return `(${real} + CASE WHEN ${mode} = 'test'
      THEN coalesce((SELECT tc.offset_seconds FROM test_clocks tc WHERE tc.developer_id = ${developer} AND tc.mode = 'test'), 0) * interval '1 second'
      ELSE interval '0' END)`;
}
