/** How many rows one account's day is spread over in `analytics_daily_totals`. */
export const ANALYTICS_SLOTS = 8;

/**
 * The slot a payment's or refund's figures go to: from the last two hex digits of its id, so every
 * change of one payment (its decline, then its late success) lands on the same row, while
 * concurrent payments of one account spread over the slots instead of queueing behind one row
 * lock. The migration's backfill computes the same (`('x' || right(id::text, 2))::bit(8)::int % 8`).
 */
export function analyticsSlot(id: string): number {
  const tail = Number.parseInt(id.slice(-2), 16);
  if (Number.isNaN(tail)) throw new Error(`analytics slot: not a uuid: ${id}`);
  return tail % ANALYTICS_SLOTS;
}

/** `YYYY-MM-DD`, the UTC day of an instant: the day a figure counts on. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}
