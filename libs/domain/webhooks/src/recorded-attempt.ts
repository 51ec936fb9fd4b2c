import { canMove, targetOf } from '@gateway/platform';
import { DELIVERY_TRANSITIONS, type DeliveryTransition } from './delivery-status';
import type { AttemptTrigger } from './webhook.entities';
import type { LockedDelivery } from './webhook-deliveries.repository';

/** What recording one attempt changed beyond its delivery's row. */
export interface AttemptEffects {
  /** The attempt moved its delivery to `failed`: one more delivery in its endpoint's run. */
  endedDeliveryFailed: boolean;
  /** When the next automatic attempt is due (the row's next_attempt_at, where the next claim finds it), if one was scheduled. */
  retryAt: Date | null;
}

/**
 * Applies one finished attempt to its delivery's row, read under the row's lock and changed in
 * place (written back by the caller): status moves only where DELIVERY_TRANSITIONS allows them
 * (a delivered delivery never goes back to `failed`), and the schedule, the replay mark and the
 * lease only while the attempt still holds the lease it was sent under. Applied in turn, several
 * attempts of one delivery end as if each had been recorded alone.
 * `retryScheduleMs`: the delays before each automatic retry (WEBHOOK_RETRY_SCHEDULE_SECONDS).
 */
export function applyAttempt(
  row: LockedDelivery,
  attempt: { leaseUntil: Date; trigger: AttemptTrigger; success: boolean; finishedAt: Date },
  retryScheduleMs: readonly number[],
): AttemptEffects {
  const ownsLease = row.leaseUntil?.getTime() === attempt.leaseUntil.getTime();
  const move = (transition: DeliveryTransition): boolean => {
    if (!canMove(DELIVERY_TRANSITIONS, transition, row.status)) return false;
    row.status = targetOf(DELIVERY_TRANSITIONS, transition);
    row.completedAt = attempt.finishedAt;
    return true;
  };
  const effects: AttemptEffects = { endedDeliveryFailed: false, retryAt: null };
  if (attempt.success) move('deliver');
  else if (attempt.trigger === 'test') move('fail');
  else if (attempt.trigger === 'replay' && ownsLease) effects.endedDeliveryFailed = move('fail');
  // `attempts` counts automatic attempts only: the schedule's position, which manual retries and replays do not move.
  if (attempt.trigger === 'automatic' && ownsLease) {
    row.attempts += 1;
    if (!attempt.success) {
      const delay = retryScheduleMs[row.attempts - 1];
      if (delay === undefined) effects.endedDeliveryFailed = move('fail');
      else if (row.status === 'pending') effects.retryAt = row.nextAttemptAt = new Date(attempt.finishedAt.getTime() + delay);
    }
  }
  if (attempt.trigger === 'replay' && ownsLease) row.replayRequestedAt = null;
  if (ownsLease) row.leaseUntil = null;
  return effects;
}
