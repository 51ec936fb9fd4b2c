/** A row's trial count: its default times RELIABILITY_TRIALS_SCALE (default 1), so a long run can go further. */
export function trials(defaultCount: number): number {
  const scale = Number(process.env.RELIABILITY_TRIALS_SCALE ?? '1');
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`RELIABILITY_TRIALS_SCALE must be a positive number, not ${process.env.RELIABILITY_TRIALS_SCALE}`);
  return Math.max(1, Math.round(defaultCount * scale));
}
