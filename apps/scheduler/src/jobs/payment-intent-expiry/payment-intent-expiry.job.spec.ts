import type { PaymentIntentsUpkeepService } from '@gateway/domain/payment-intents';
import { PaymentIntentExpiryJob } from './payment-intent-expiry.job';

/**
 * The five-minute hold upkeep as the scheduler runs it. What each step does to intents (a create
 * nobody retried is given up and its hold released, …) is shown over HTTP in
 * apps/api-e2e/src/payment-intents.e2e-spec.ts; this shows the scan runs both steps, in order.
 */
describe('PaymentIntentExpiryJob', () => {
  function fakeIntents(overrides: Partial<Record<'expireHolds' | 'recoverInterrupted', jest.Mock>> = {}) {
    const calls: string[] = [];
    const intents = {
      expireHolds: overrides.expireHolds ?? jest.fn(async () => (calls.push('expireHolds'), 2)),
      recoverInterrupted: overrides.recoverInterrupted ?? jest.fn(async () => (calls.push('recoverInterrupted'), 1)),
    };
    return { intents, calls, job: new PaymentIntentExpiryJob(intents as unknown as PaymentIntentsUpkeepService) };
  }

  it('expires lapsed holds, then gives up or resumes interrupted creates and captures, and reports the expired count', async () => {
    const { job, calls } = fakeIntents();
    expect(await job.run()).toBe(2);
    expect(calls).toEqual(['expireHolds', 'recoverInterrupted']);
  });

  it('survives a failed scan, leaving what it did not finish for the next run', async () => {
    const { job, intents } = fakeIntents({ expireHolds: jest.fn().mockRejectedValue(new Error('database unavailable')) });
    jest.spyOn(job['logger'], 'error').mockImplementation(() => undefined);
    expect(await job.run()).toBe(0);
    expect(intents.recoverInterrupted).not.toHaveBeenCalled();
    expect(job['logger'].error).toHaveBeenCalled();
  });
});
