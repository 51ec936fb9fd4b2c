import type { SimulatorContext } from '../context';
import type { Account } from '../state/accounts';

/**
 * Transfers and refunds settle asynchronously, like at a real provider.
 * With the `auto_complete` knob on (default) the settlement runs after
 * `transfer_delay_ms`; otherwise it waits for a /sim/…/complete call.
 */
export function scheduleCompletion(ctx: SimulatorContext, account: Account, key: string, complete: () => void): void {
  const knobs = ctx.knobs.current;
  if (!knobs.autoComplete) return;
  const cancel = ctx.tasks.schedule(knobs.transferDelayMs, () => {
    account.scheduledCompletions.delete(key);
    complete();
  });
  account.scheduledCompletions.set(key, cancel);
}

/** A manual completion wins over the scheduled one. */
export function cancelScheduledCompletion(account: Account, key: string): void {
  account.scheduledCompletions.get(key)?.();
  account.scheduledCompletions.delete(key);
}
