import { Injectable, Logger } from '@nestjs/common';
import { DisputesService } from '@gateway/domain/disputes';
import { InvoiceOverdueService } from '@gateway/domain/invoices';
import { PaymentIntentsUpkeepService } from '@gateway/domain/payment-intents';
import { PaymentChargesService, PaymentsMaintenanceService } from '@gateway/domain/payments';
import { SubscriptionBillingService } from '@gateway/domain/subscriptions';
import { TestClocksService } from '@gateway/domain/test-clocks';
import type { DeveloperContext } from '@gateway/platform';

/** What one run did: how many objects each rule moved. */
export type TimeRulesReport = Record<TimeRuleName, number>;

export type TimeRuleName = 'abandoned_payments' | 'scheduled_charges' | 'payment_intent_expiry' | 'dispute_expiry' | 'subscription_billing' | 'invoice_overdue';

/** Objects a rule handles per call; a rule is called again while it still finds work. */
const BATCH = 100;
/**
 * Calls per rule in one run, so a run always ends: a daily plan advanced ten years is 3,660
 * periods, one per call. What a run leaves, the scheduler's next run for this clock continues.
 */
const MAX_CALLS_PER_RULE = 1_000;

interface TimeRule {
  name: TimeRuleName;
  /** Handles at most `limit` of the tenant's objects that are due at `asOf`; returns how many. */
  run(limit: number, ctx: DeveloperContext, asOf: Date): Promise<number>;
}

/**
 * Every time-driven rule of the gateway, run for ONE tenant at ITS time (docs/test-clocks.md):
 * what the scheduler's scans do for everyone at real time, done for a developer whose test clock
 * runs ahead. Each rule is the very scan the scheduler runs (same claims, same transactions), so a
 * run here, the scheduler's own scans and another scheduler's run of this can overlap safely.
 * Auto-settlement is not here: settlements are live-mode only, and live mode never follows a clock.
 */
@Injectable()
export class TimeRulesService {
  private readonly logger = new Logger('TimeRules');
  /** In dependency order: a charge due before a hold lapses is made first, as real time would have it. */
  private readonly rules: TimeRule[];

  constructor(
    private readonly clocks: TestClocksService,
    maintenance: PaymentsMaintenanceService,
    charges: PaymentChargesService,
    holds: PaymentIntentsUpkeepService,
    disputes: DisputesService,
    billing: SubscriptionBillingService,
    invoices: InvoiceOverdueService,
  ) {
    this.rules = [
      { name: 'abandoned_payments', run: (limit, ctx, asOf) => maintenance.abandonUnpaid(limit, ctx, asOf) },
      { name: 'scheduled_charges', run: (limit, ctx, asOf) => charges.chargeDue(limit, ctx, asOf) },
      { name: 'payment_intent_expiry', run: (_limit, ctx, asOf) => holds.expireHolds(asOf, ctx) },
      { name: 'dispute_expiry', run: (limit, ctx, asOf) => disputes.expireOverdue(limit, ctx, asOf) },
      // Trials, renewals and dunning retries, one period per subscription per call.
      { name: 'subscription_billing', run: (limit, ctx, asOf) => billing.billDue(limit, ctx, asOf) },
      { name: 'invoice_overdue', run: (limit, ctx, asOf) => invoices.markOverdue(limit, ctx, asOf) },
    ];
  }

  /** Runs every rule for `ctx` as of `asOf`, each until it finds nothing more to do (or its call limit). */
  async runFor(ctx: DeveloperContext, asOf: Date): Promise<TimeRulesReport> {
    const report = {} as TimeRulesReport;
    for (const rule of this.rules) {
      let total = 0;
      for (let calls = 0; calls < MAX_CALLS_PER_RULE; calls++) {
        const done = await rule.run(BATCH, ctx, asOf);
        total += done;
        if (done === 0) break;
      }
      report[rule.name] = total;
    }
    return report;
  }

  /**
   * The scheduler's pass over every developer whose test clock runs ahead: each tenant's rules at
   * its own time. One tenant's failure is logged and the others still run.
   */
  async runAdvancedClocks(): Promise<number> {
    const tenants = await this.clocks.advancedTenants();
    for (const { ctx, now } of tenants) {
      try {
        await this.runFor(ctx, now);
      } catch (error) {
        this.logger.warn(`time rules for developer ${ctx.developerId} (test clock) failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return tenants.length;
  }
}
