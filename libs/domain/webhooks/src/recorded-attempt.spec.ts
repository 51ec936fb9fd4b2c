import { applyAttempt } from './recorded-attempt';
import type { LockedDelivery } from './webhook-deliveries.repository';

const SCHEDULE_MS = [60_000, 180_000];
const LEASE = new Date('2026-03-14T09:00:15.000Z');
const FINISHED = new Date('2026-03-14T09:00:01.000Z');
const CREATED = new Date('2026-03-14T09:00:00.000Z');

const row = (changes: Partial<LockedDelivery> = {}): LockedDelivery => ({
  id: 'd1',
  status: 'pending',
  attempts: 0,
  nextAttemptAt: CREATED,
  completedAt: null,
  leaseUntil: LEASE,
  replayRequestedAt: null,
  ...changes,
});
const attempt = (trigger: 'automatic' | 'manual' | 'test' | 'replay', success: boolean, leaseUntil = LEASE) => ({ trigger, success, leaseUntil, finishedAt: FINISHED });

describe('applyAttempt (what recording an attempt does to its delivery)', () => {
  it('a failed first automatic attempt schedules the second one a minute later and releases the lease', () => {
    const delivery = row();
    expect(applyAttempt(delivery, attempt('automatic', false), SCHEDULE_MS)).toEqual({ endedDeliveryFailed: false, retryAt: new Date(FINISHED.getTime() + 60_000) });
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: new Date(FINISHED.getTime() + 60_000), leaseUntil: null, completedAt: null });
  });

  it('the last automatic attempt failing ends the delivery failed, one more in its endpoint run', () => {
    const delivery = row({ attempts: 2 });
    expect(applyAttempt(delivery, attempt('automatic', false), SCHEDULE_MS)).toEqual({ endedDeliveryFailed: true, retryAt: null });
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, completedAt: FINISHED, leaseUntil: null });
  });

  it('a success delivers, and a manual retry delivers a delivery whose schedule ran out without moving the schedule', () => {
    const automatic = row();
    applyAttempt(automatic, attempt('automatic', true), SCHEDULE_MS);
    expect(automatic).toMatchObject({ status: 'delivered', attempts: 1, completedAt: FINISHED, leaseUntil: null });
    const failed = row({ status: 'failed', attempts: 3 });
    expect(applyAttempt(failed, attempt('manual', true), SCHEDULE_MS)).toEqual({ endedDeliveryFailed: false, retryAt: null });
    expect(failed).toMatchObject({ status: 'delivered', attempts: 3, leaseUntil: null });
  });

  it('an attempt whose lease expired and was taken by another touches neither the schedule nor the lease, and never fails a delivered delivery', () => {
    const taken = new Date(LEASE.getTime() + 20_000);
    const delivered = row({ status: 'delivered', attempts: 2, leaseUntil: taken });
    expect(applyAttempt(delivered, attempt('automatic', false), SCHEDULE_MS)).toEqual({ endedDeliveryFailed: false, retryAt: null });
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 2, leaseUntil: taken });
  });

  it('a replayed attempt that fails ends the delivery failed again, with no schedule, and clears the replay mark', () => {
    const delivery = row({ attempts: 3, replayRequestedAt: CREATED });
    expect(applyAttempt(delivery, attempt('replay', false), SCHEDULE_MS)).toEqual({ endedDeliveryFailed: true, retryAt: null });
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, replayRequestedAt: null, leaseUntil: null });
  });

  it('a failed test delivery is failed and never counted in the run', () => {
    const delivery = row();
    expect(applyAttempt(delivery, attempt('test', false), SCHEDULE_MS)).toEqual({ endedDeliveryFailed: false, retryAt: null });
    expect(delivery.status).toBe('failed');
  });

  it('two attempts of one delivery applied in turn end as if recorded one after the other', () => {
    const stale = LEASE;
    const current = new Date(LEASE.getTime() + 20_000);
    const delivery = row({ attempts: 2, leaseUntil: current });
    // The stalled last automatic attempt (lease lost) fails; the manual retry holding the new lease succeeds.
    applyAttempt(delivery, attempt('automatic', false, stale), SCHEDULE_MS);
    applyAttempt(delivery, attempt('manual', true, current), SCHEDULE_MS);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, leaseUntil: null });
  });
});
