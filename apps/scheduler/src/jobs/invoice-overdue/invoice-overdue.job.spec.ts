import 'reflect-metadata';
import type { InvoiceOverdueService } from '@gateway/domain/invoices';
import { InvoiceOverdueJob } from './invoice-overdue.job';

describe('InvoiceOverdueJob', () => {
  it('drains full batches until one comes back short, and returns the total moved', async () => {
    const batches = [200, 200, 17];
    const markOverdue = jest.fn(async () => batches.shift() ?? 0);
    const job = new InvoiceOverdueJob({ markOverdue } as unknown as InvoiceOverdueService);
    expect(await job.run()).toBe(417);
    expect(markOverdue).toHaveBeenCalledTimes(3);
    expect(markOverdue).toHaveBeenCalledWith(200);
  });

  it('a failing scan is logged and retried by the next tick, not thrown', async () => {
    const job = new InvoiceOverdueJob({ markOverdue: jest.fn(async () => Promise.reject(new Error('db down'))) } as unknown as InvoiceOverdueService);
    jest.spyOn((job as unknown as { logger: { error: () => void } }).logger, 'error').mockImplementation(() => undefined);
    expect(await job.run()).toBe(0);
  });
});
