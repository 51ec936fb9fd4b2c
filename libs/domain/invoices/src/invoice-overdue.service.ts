import { Inject, Injectable } from '@nestjs/common';
import { TestClocksService } from '@gateway/domain/test-clocks';
import { EventsService } from '@gateway/domain/webhooks';
import { APP_CONFIG, type AppConfig, Clock, type DeveloperContext, inTransaction, tenantOf } from '@gateway/platform';
import { DataSource } from 'typeorm';
import { utcDate } from './invoice-dates';
import { toInvoiceResponse } from './invoice.mapper';
import { InvoicesRepository } from './invoices.repository';

/**
 * The overdue scan (docs/invoices.md "Overdue"): a `sent` or `partially_paid` invoice whose
 * due_date is before the tenant's current UTC date becomes `overdue`, once, with `invoice.overdue`
 * emitted in the same transaction as the move.
 */
@Injectable()
export class InvoiceOverdueService {
  constructor(
    private readonly repository: InvoicesRepository,
    private readonly events: EventsService,
    private readonly testClocks: TestClocksService,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Moves at most `limit` invoices to `overdue` and returns how many moved. Without `ctx` and
   * `asOf` it scans every tenant as of the real Clock (the scheduler); `ctx` limits it to one tenant
   * (as of that tenant's time: its test clock in test mode), and `asOf` runs it as if it were that
   * time (the test-clock orchestrator). Safe with several schedulers at once: one conditional
   * UPDATE … RETURNING over SKIP LOCKED rows, so each invoice moves, and emits, once.
   */
  async markOverdue(limit: number, ctx?: DeveloperContext, asOf?: Date): Promise<number> {
    const now = asOf ?? (ctx ? await this.testClocks.now(ctx) : this.clock.now());
    return inTransaction(this.dataSource, async (manager) => {
      const moved = await this.repository.markOverdue(manager, utcDate(now), now, limit, ctx);
      for (const invoice of moved) {
        await this.events.emit(manager, tenantOf(invoice, ctx), 'invoice.overdue', {
          ...toInvoiceResponse(invoice, this.config.api.publicBaseUrl),
        });
      }
      return moved.length;
    });
  }
}
