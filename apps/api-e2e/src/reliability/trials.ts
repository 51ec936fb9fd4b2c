/** A row's trial count: its default times RELIABILITY_TRIALS_SCALE (default 1), so a long run can go further. */
export function trials(defaultCount: number): number {
  const scale = Number(process.env.RELIABILITY_TRIALS_SCALE ?? '1');
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`RELIABILITY_TRIALS_SCALE must be a positive number, not ${process.env.RELIABILITY_TRIALS_SCALE}`);
  return Math.max(1, Math.round(defaultCount * scale));
}

/**
 * A test's timeout for `count` trials: generous per trial (a loaded machine is slow, and a row's
 * failure is an assertion, never a deadline), at least the tier's default.
 */
export function timeoutFor(count: number, msPerTrial: number): number {
  return Math.max(120_000, count * msPerTrial);
}
