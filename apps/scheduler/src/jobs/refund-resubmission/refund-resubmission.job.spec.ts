import type { RefundsService } from '@gateway/domain/refunds';
import { RefundResubmissionJob } from './refund-resubmission.job';

describe('RefundResubmissionJob', () => {
  it('resubmits through the refunds service and reports how many', async () => {
    const refunds = { resubmitUnaccepted: jest.fn().mockResolvedValue(3) };
    expect(await new RefundResubmissionJob(refunds as unknown as RefundsService).run()).toBe(3);
    expect(refunds.resubmitUnaccepted).toHaveBeenCalledTimes(1);
  });

  it('survives a failed scan, leaving the refunds for the next run', async () => {
    const refunds = { resubmitUnaccepted: jest.fn().mockRejectedValue(new Error('database unavailable')) };
    const job = new RefundResubmissionJob(refunds as unknown as RefundsService);
    jest.spyOn(job['logger'], 'error').mockImplementation(() => undefined);
    expect(await job.run()).toBe(0);
  });
});
