import { randomHex } from './random-hex';

/** Hex digits of the milliseconds since 1970 that lead a time-ordered identifier: 48 bits, as in a version-7 UUID. */
const TIME_DIGITS = 12;

/** Random bytes a time-ordered identifier keeps at least: 48 bits, so that two made in one millisecond do not collide. */
const MIN_RANDOM_BYTES = 6;

/**
 * `bytes` bytes as hex for a public identifier that grows with time (event ids, delivery logs,
 * transfers): the first six are the milliseconds since 1970, the rest random (randomHex). Each new
 * row's key then goes at the right edge of its unique index instead of into a random page of it,
 * as timeOrderedUuid does for row ids (docs/benchmarks.md, "Request ids in time order"). The
 * time is the machine's, not the account's Clock: the order that matters is the order of writes.
 * At least 12 bytes, so that at least 6 stay random; shorter identifiers stay wholly random.
 */
export function timeOrderedHex(bytes: number): string {
  if (!Number.isInteger(bytes) || bytes < TIME_DIGITS / 2 + MIN_RANDOM_BYTES) {
    throw new RangeError(`timeOrderedHex takes at least ${TIME_DIGITS / 2 + MIN_RANDOM_BYTES} bytes, not ${bytes}`);
  }
  return Date.now().toString(16).padStart(TIME_DIGITS, '0') + randomHex(bytes - TIME_DIGITS / 2);
}
