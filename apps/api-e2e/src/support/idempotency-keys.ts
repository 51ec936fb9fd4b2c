import { randomUUID } from 'node:crypto';

/**
 * A fresh idempotency key, `<prefix>-<UUID>`. Not 16 random hex digits, nor `Date.now()` (13
 * digits, starting with 2 from 2033): those are now and then all digits and Luhn-valid, and the
 * secrets-at-rest scan, which reads every stored key, rightly takes such a key for a card number.
 * A UUID's runs of digits are too short for that.
 */
export function newIdempotencyKey(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}
