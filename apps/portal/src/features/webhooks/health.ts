import type { Webhook, WebhookHealth } from './api';

/** What the endpoint's badge says: stopped by the gateway, its last attempt failed, its last attempt succeeded, or never tried. */
export type HealthState = 'disabled' | 'failing' | 'healthy' | 'idle';

export function healthState(webhook: Pick<Webhook, 'status' | 'health'>): HealthState {
  const { last_success_at: success, last_failure_at: failure } = webhook.health;
  if (webhook.status === 'disabled') return 'disabled';
  // Re-enabling clears the run (failing_since) but not the record: until an attempt succeeds, it is still failing.
  if (failure && (!success || new Date(failure) > new Date(success))) return 'failing';
  return success ? 'healthy' : 'idle';
}

/** `98.5 %`, or `—` without any attempt in the window. */
export function formatSuccessRate(health: Pick<WebhookHealth, 'success_rate'>): string {
  if (health.success_rate === null) return '—';
  const percent = Math.round(health.success_rate * 1000) / 10;
  return `${percent} %`;
}

/**
 * An instant as a `datetime-local` field's value (the user's wall-clock time), floored to the
 * minute the field shows: a replay from it still includes that instant.
 */
export function isoToLocalInput(iso: string): string {
  const time = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}T${pad(time.getHours())}:${pad(time.getMinutes())}`;
}

/** Where a replay starts by default: the current run's first failure, else a day ago. */
export function defaultReplaySince(health: Pick<WebhookHealth, 'failing_since'>, now: Date): string {
  return health.failing_since ?? new Date(now.getTime() - 86_400_000).toISOString();
}
