import { v7 } from 'uuid';

/**
 * A new row's id, made in TypeScript: a version-7 UUID (RFC 9562), whose first 48 bits are the
 * milliseconds since 1970 and whose ids from one process increase. A table's primary key then
 * grows at its right edge: a random id writes into a random page of it, which a large index seldom
 * holds in memory and which the WAL logs whole after each checkpoint (docs/benchmarks.md, "Request
 * ids in time order"). The database makes its ids the same way (`time_ordered_uuid()`, migration
 * OrderNewIdsByTime). Its last hex digits are random, as the analytics slots need.
 */
export function timeOrderedUuid(): string {
  return v7();
}
