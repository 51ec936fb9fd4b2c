import { Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { InvoiceOverdueService } from '@gateway/domain/invoices';
import { ScanRunner } from '@gateway/platform';

/** Moves at most this many invoices per batch (one transaction each); the run continues until a batch is short. */
const BATCH = 200;

/**
 * Every five minutes, `sent` / `partially_paid` invoices whose due_date is before today (UTC)
 * become `overdue` with `invoice.overdue`. An invoice is overdue from the first minute of the day
 * after its due date, so five minutes is late by at most five minutes at negligible cost (the
 * scan reads a partial index of open invoices only). Each batch is one conditional UPDATE over
 * SKIP LOCKED rows, so several schedulers may run it and each invoice moves once.
 */
@Injectable()
export class InvoiceOverdueJob {
  private readonly logger = new Logger('InvoiceOverdue');
  // On failure the next tick retries: a late invoice stays open until one run moves it.
  private readonly scan = new ScanRunner<number>(this.logger, 'Invoice-overdue scan failed', 0);

  constructor(private readonly overdue: InvoiceOverdueService) {}

  /** Returns how many invoices this run moved (0 when the previous run is still going). */
  @Cron('15 */5 * * * *', { name: 'invoice-overdue' })
  async run(): Promise<number> {
    return this.scan.run(async () => {
      let total = 0;
      for (let moved = BATCH; moved === BATCH; total += moved) moved = await this.overdue.markOverdue(BATCH);
      if (total > 0) this.logger.log(`Marked ${total} invoices overdue`);
      return total;
    });
  }
}
