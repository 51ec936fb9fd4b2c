import { Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { AutoSettlementsService } from '@gateway/domain/settlements';
import { ScanRunner } from '@gateway/platform';

/**
 * Every 5 minutes, creates the day's (and on its weekday, the week's) auto-settlements that are due
 * (from AUTO_SETTLEMENT_TIME on) and not made yet; a period is settled once per account and
 * currency, so a missed tick or a second scheduler changes nothing.
 */
@Injectable()
export class AutoSettlementJob {
  private readonly logger = new Logger('AutoSettlement');
  private readonly scan = new ScanRunner<number>(this.logger, 'Auto-settlement run failed', 0);

  constructor(private readonly autoSettlements: AutoSettlementsService) {}

  @Cron('20 */5 * * * *', { name: 'auto-settlement' })
  async run(): Promise<number> {
    return this.scan.run(async () => {
      const created = await this.autoSettlements.run();
      if (created > 0) this.logger.log(`Created ${created} auto-settlements`);
      return created;
    });
  }
}
