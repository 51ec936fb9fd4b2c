import { Injectable, Logger } from '@nestjs/common';
import { TestClocksService } from '@gateway/domain/test-clocks';
import { Clock, type DeveloperContext } from '@gateway/platform';
import { ExportStorage } from './export-storage';
import { ExportsRepository } from './exports.repository';

const BATCH = 100;

/**
 * Deletes the files of exports past their expiry and marks them `expired` (the record stays). The
 * file goes first: a crash in between leaves a completed export without a file, which downloads
 * as expired and the next run marks, never a file kept past its retention period. Deleting and
 * marking are idempotent, so several schedulers may run this at once.
 */
@Injectable()
export class ExportExpiryService {
  private readonly logger = new Logger('ExportExpiry');

  constructor(
    private readonly repository: ExportsRepository,
    private readonly storage: ExportStorage,
    private readonly testClocks: TestClocksService,
    private readonly clock: Clock,
  ) {}

  /**
   * One pass: every export due at real time, then those of test-mode tenants whose test clock
   * runs ahead, at that clock's time (their expires_at was set by it). Returns how many expired.
   */
  async expireDue(): Promise<number> {
    let total = await this.expireUpTo(this.clock.now());
    for (const { ctx, now } of await this.testClocks.advancedTenants()) {
      try {
        total += await this.expireUpTo(now, ctx);
      } catch (error) {
        this.logger.warn(`export expiry for developer ${ctx.developerId} (test clock) failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return total;
  }

  /** Every export due at `asOf` (optionally one tenant's), a batch at a time. */
  async expireUpTo(asOf: Date, ctx?: DeveloperContext): Promise<number> {
    let total = 0;
    for (;;) {
      const due = await this.repository.findDueForExpiry(asOf, BATCH, ctx);
      for (const { id, fileKey } of due) {
        if (fileKey) await this.storage.delete(fileKey);
        if (await this.repository.markExpired(id, this.clock.now())) total++;
      }
      if (due.length < BATCH) return total;
    }
  }
}
