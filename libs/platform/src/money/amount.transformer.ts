import type { ValueTransformer } from 'typeorm';
import { Amount } from './amount';

/**
 * TypeORM transformer for a `numeric(20,2)` column holding an `Amount`:
 *
 *   @Column({ type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer })
 *   amount: Amount;
 *
 * Writes the canonical two-decimal string ("100.10"), which is also what
 * TypeORM compares when it decides whether the column changed, so an unchanged
 * amount is not re-written. Reads node-postgres' numeric string back exactly,
 * never through a float. null/undefined pass through (nullable columns, partial
 * updates). Writing anything other than an `Amount` is a bug and throws a
 * `TypeError`, so a float cannot reach the column by accident.
 */
export const amountTransformer = {
  to(value: Amount | null | undefined): string | null | undefined {
    if (value === null || value === undefined) return value;
    if (!(value instanceof Amount)) {
      throw new TypeError(`amountTransformer.to expects an Amount, got ${typeof value}; wrap it with Amount.parse`);
    }
    return value.toString();
  },
  from(value: string | null): Amount | null {
    if (value === null || value === undefined) return null;
    return Amount.parse(value);
  },
} satisfies ValueTransformer;
