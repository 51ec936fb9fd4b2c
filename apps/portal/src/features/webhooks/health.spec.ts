import { defaultReplaySince, formatSuccessRate, healthState, isoToLocalInput } from './health';

const health = {
  window_days: 7,
  attempts: 0,
  succeeded_attempts: 0,
  success_rate: null,
  last_success_at: null,
  last_failure_at: null,
  last_failure_error: null,
  last_failure_status_code: null,
  consecutive_failed_deliveries: 0,
  failing_since: null,
};

describe('webhook endpoint health in the portal', () => {
  it('says disabled before anything else, then failing while the last attempt failed, healthy while it succeeded, idle before any', () => {
    const earlier = '2025-03-14T09:00:00.000Z';
    const later = '2025-03-14T10:00:00.000Z';
    expect(healthState({ status: 'disabled', health: { ...health, last_success_at: later, last_failure_at: earlier } })).toBe('disabled');
    expect(healthState({ status: 'enabled', health: { ...health, last_failure_at: later, failing_since: earlier } })).toBe('failing');
    // Re-enabled: the run is cleared, but the last attempt still failed.
    expect(healthState({ status: 'enabled', health: { ...health, last_success_at: earlier, last_failure_at: later } })).toBe('failing');
    expect(healthState({ status: 'enabled', health: { ...health, last_success_at: later, last_failure_at: earlier } })).toBe('healthy');
    // Attempts older than the window are gone from the counts; the last success still says it worked.
    expect(healthState({ status: 'enabled', health: { ...health, last_success_at: earlier } })).toBe('healthy');
    expect(healthState({ status: 'enabled', health })).toBe('idle');
  });

  it('shows the success rate as a percentage with one decimal, or a dash without attempts', () => {
    expect(formatSuccessRate({ success_rate: null })).toBe('—');
    expect(formatSuccessRate({ success_rate: 1 })).toBe('100 %');
    expect(formatSuccessRate({ success_rate: 0.3333 })).toBe('33.3 %');
    expect(formatSuccessRate({ success_rate: 0 })).toBe('0 %');
  });

  it('turns an instant into the datetime-local value of that minute, which reads back no later than the instant', () => {
    const iso = '2025-03-14T09:26:53.123Z';
    const local = isoToLocalInput(iso);
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    const back = new Date(local).getTime();
    expect(back).toBeLessThanOrEqual(new Date(iso).getTime());
    expect(new Date(iso).getTime() - back).toBeLessThan(60_000);
  });

  it('starts a replay at the run’s first failure, else a day ago', () => {
    const now = new Date('2025-03-14T12:00:00.000Z');
    expect(defaultReplaySince({ failing_since: '2025-03-11T08:00:00.000Z' }, now)).toBe('2025-03-11T08:00:00.000Z');
    expect(defaultReplaySince({ failing_since: null }, now)).toBe('2025-03-13T12:00:00.000Z');
  });
});
