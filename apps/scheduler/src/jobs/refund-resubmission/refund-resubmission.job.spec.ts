import { SchedulerRegistry } from '@nestjs/schedule';
import type { RefundsService } from '@gateway/domain/refunds';
import type { AppConfig } from '@gateway/platform';
import { RefundResubmissionJob } from './refund-resubmission.job';

describe('RefundResubmissionJob', () => {
  // run() reads no configuration: only the interval's registration (at bootstrap) does.
  const job = (refunds: Pick<RefundsService, 'resubmitUnaccepted'>) => new RefundResubmissionJob(refunds as RefundsService, new SchedulerRegistry(), {} as AppConfig);

  it('resubmits through the refunds service and reports how many', async () => {
    const refunds = { resubmitUnaccepted: jest.fn().mockResolvedValue(3) };
    expect(await job(refunds).run()).toBe(3);
    expect(refunds.resubmitUnaccepted).toHaveBeenCalledTimes(1);
  });

  it('survives a failed scan, leaving the refunds for the next run', async () => {
    const refunds = { resubmitUnaccepted: jest.fn().mockRejectedValue(new Error('database unavailable')) };
    const failing = job(refunds);
    jest.spyOn(failing['logger'], 'error').mockImplementation(() => undefined);
    expect(await failing.run()).toBe(0);
  });
});
