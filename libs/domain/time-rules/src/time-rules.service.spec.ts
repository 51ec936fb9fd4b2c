import type { DisputesService } from '@gateway/domain/disputes';
import type { InvoiceOverdueService } from '@gateway/domain/invoices';
import type { PaymentIntentsUpkeepService } from '@gateway/domain/payment-intents';
import type { PaymentChargesService, PaymentsMaintenanceService } from '@gateway/domain/payments';
import type { SubscriptionBillingService } from '@gateway/domain/subscriptions';
import type { TestClocksService } from '@gateway/domain/test-clocks';
import type { DeveloperContext } from '@gateway/platform';
import { TimeRulesService } from './time-rules.service';

/** A scan that finds `work` objects in all and hands out at most `limit` per call. */
function scanOf(work: number) {
  let left = work;
  const calls: Array<{ ctx?: DeveloperContext; asOf?: Date }> = [];
  const run = jest.fn(async (limit: number, ctx?: DeveloperContext, asOf?: Date) => {
    calls.push({ ctx, asOf });
    const done = Math.min(limit, left);
    left -= done;
    return done;
  });
  return { run, calls };
}

function rulesWith(work: { abandoned?: number; charges?: number; holds?: number; disputes?: number; billing?: number; invoices?: number }, clocks: Partial<TestClocksService> = {}) {
  const scans = {
    abandoned: scanOf(work.abandoned ?? 0),
    charges: scanOf(work.charges ?? 0),
    holds: scanOf(work.holds ?? 0),
    disputes: scanOf(work.disputes ?? 0),
    billing: scanOf(work.billing ?? 0),
    invoices: scanOf(work.invoices ?? 0),
  };
  const service = new TimeRulesService(
    clocks as TestClocksService,
    { abandonUnpaid: scans.abandoned.run } as unknown as PaymentsMaintenanceService,
    { chargeDue: scans.charges.run } as unknown as PaymentChargesService,
    { expireHolds: (asOf: Date, ctx: DeveloperContext) => scans.holds.run(Number.MAX_SAFE_INTEGER, ctx, asOf) } as unknown as PaymentIntentsUpkeepService,
    { expireOverdue: scans.disputes.run } as unknown as DisputesService,
    { billDue: scans.billing.run } as unknown as SubscriptionBillingService,
    { markOverdue: scans.invoices.run } as unknown as InvoiceOverdueService,
  );
  return { service, scans };
}

const ctx: DeveloperContext = { developerId: 'd1', mode: 'test' };
const asOf = new Date('2027-03-01T00:00:00.000Z');

describe('TimeRulesService', () => {
  it('runs each rule for the tenant at its time until it finds nothing more, and reports what each did', async () => {
    const { service, scans } = rulesWith({ abandoned: 3, charges: 250, billing: 13, invoices: 1 });
    expect(await service.runFor(ctx, asOf)).toEqual({
      abandoned_payments: 3,
      scheduled_charges: 250,
      payment_intent_expiry: 0,
      dispute_expiry: 0,
      subscription_billing: 13,
      invoice_overdue: 1,
    });
    // 100 + 100 + 50, then a call that finds none.
    expect(scans.charges.run).toHaveBeenCalledTimes(4);
    expect(scans.charges.calls.every((c) => c.ctx === ctx && c.asOf === asOf)).toBe(true);
    expect(scans.holds.run).toHaveBeenCalledTimes(1);
  });

  it('stops a rule that never runs out of work after its call limit, so a run always ends', async () => {
    const { service, scans } = rulesWith({ billing: Number.MAX_SAFE_INTEGER });
    const report = await service.runFor(ctx, asOf);
    expect(scans.billing.run).toHaveBeenCalledTimes(1_000);
    expect(report.subscription_billing).toBe(100_000);
    expect(scans.invoices.run).toHaveBeenCalledTimes(1); // the rules after it still ran
  });

  it("runs every advanced clock's tenant at its own time, and one tenant's failure does not stop the others", async () => {
    const other: DeveloperContext = { developerId: 'd2', mode: 'test' };
    const later = new Date('2028-01-01T00:00:00.000Z');
    const advancedTenants = jest.fn(async () => [
      { ctx, now: asOf },
      { ctx: other, now: later },
    ]);
    const { service, scans } = rulesWith({}, { advancedTenants });
    scans.charges.run.mockRejectedValueOnce(new Error('database went away'));
    expect(await service.runAdvancedClocks()).toBe(2);
    expect(scans.invoices.calls).toEqual([{ ctx: other, asOf: later }]);
  });
});
