import type { SimulatorContext } from '../context';

/**
 * Back to a freshly started simulator: every account emptied, knobs back to
 * their configured values, scheduled completions and queued callbacks dropped.
 */
export function resetSimulator(ctx: SimulatorContext): void {
  ctx.tasks.cancelScheduled();
  ctx.callbacks.cancelPending();
  ctx.accounts.reset();
  ctx.uploads.clear();
  ctx.knobs.reset();
}
