import { Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { DisputesService } from '@gateway/domain/disputes';
import { ScanRunner } from '@gateway/platform';

/**
 * Every five minutes, open disputes whose evidence deadline passed without evidence are lost,
 * through the same path as the bank's decision (hold debited, `dispute.lost`). Each is one
 * conditional move, so several schedulers may run it, and a decision arriving meanwhile wins once.
 */
@Injectable()
export class DisputeExpiryJob {
  private readonly logger = new Logger('DisputeExpiry');
  // On failure the next tick retries: an overdue dispute stays open until one run loses it.
  private readonly scan = new ScanRunner<number>(this.logger, 'Dispute-expiry scan failed', 0);

  constructor(private readonly disputes: DisputesService) {}

  /** Returns how many disputes this run lost (0 when the previous run is still going). */
  @Cron('45 */5 * * * *', { name: 'dispute-expiry' })
  async run(): Promise<number> {
    return this.scan.run(async () => {
      const lost = await this.disputes.expireOverdue();
      if (lost > 0) this.logger.log(`Lost ${lost} disputes past their evidence deadline`);
      return lost;
    });
  }
}
